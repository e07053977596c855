-- CreateTable
CREATE TABLE "NotificationChannel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "configJson" TEXT NOT NULL DEFAULT '{}',
    "secretEnc" TEXT,
    "kindsJson" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledAt" DATETIME,
    "disabledReason" TEXT,
    "failedInARow" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "NotificationSetting" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "goalId" INTEGER NOT NULL DEFAULT 0,
    "kindsJson" TEXT,
    "channelsJson" TEXT,
    "batchSeconds" INTEGER,
    "muted" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "goalId" INTEGER,
    "eventSeq" INTEGER,
    "kind" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "dataJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "routedAt" DATETIME
);

-- CreateTable
CREATE TABLE "NotificationDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "msgId" TEXT NOT NULL,
    "channelId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "goalId" INTEGER NOT NULL DEFAULT 0,
    "notificationIdsJson" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "scheduledAt" DATETIME NOT NULL,
    "nextAttemptAt" DATETIME NOT NULL,
    "lockedUntil" DATETIME,
    "lastError" TEXT,
    "replayOf" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME
);

-- CreateTable
CREATE TABLE "NotificationAttempt" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "deliveryId" INTEGER NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ok" BOOLEAN NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "NotificationActionUse" (
    "nonce" TEXT NOT NULL PRIMARY KEY,
    "ownerId" INTEGER NOT NULL,
    "usedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "NotificationChannel_ownerId_idx" ON "NotificationChannel"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationSetting_ownerId_goalId_key" ON "NotificationSetting"("ownerId", "goalId");

-- CreateIndex
CREATE INDEX "Notification_routedAt_id_idx" ON "Notification"("routedAt", "id");

-- CreateIndex
CREATE INDEX "Notification_ownerId_id_idx" ON "Notification"("ownerId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Notification_goalId_eventSeq_key" ON "Notification"("goalId", "eventSeq");

-- CreateIndex
CREATE INDEX "NotificationDelivery_status_nextAttemptAt_idx" ON "NotificationDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "NotificationDelivery_channelId_goalId_id_idx" ON "NotificationDelivery"("channelId", "goalId", "id");

-- CreateIndex
CREATE INDEX "NotificationDelivery_ownerId_id_idx" ON "NotificationDelivery"("ownerId", "id");

-- CreateIndex
CREATE INDEX "NotificationAttempt_deliveryId_idx" ON "NotificationAttempt"("deliveryId");
