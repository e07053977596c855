-- CreateTable
CREATE TABLE "NotificationChannel" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "configJson" TEXT NOT NULL DEFAULT '{}',
    "secretEnc" TEXT,
    "kindsJson" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledAt" TIMESTAMP(3),
    "disabledReason" TEXT,
    "failedInARow" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationSetting" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "goalId" INTEGER NOT NULL DEFAULT 0,
    "kindsJson" TEXT,
    "channelsJson" TEXT,
    "batchSeconds" INTEGER,
    "muted" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationSetting_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "goalId" INTEGER,
    "eventSeq" INTEGER,
    "kind" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "dataJson" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "routedAt" TIMESTAMP(3),

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationDelivery" (
    "id" SERIAL NOT NULL,
    "msgId" TEXT NOT NULL,
    "channelId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "goalId" INTEGER NOT NULL DEFAULT 0,
    "notificationIdsJson" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "scheduledAt" TIMESTAMP(3) NOT NULL,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "replayOf" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "NotificationDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationAttempt" (
    "id" SERIAL NOT NULL,
    "deliveryId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ok" BOOLEAN NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "durationMs" INTEGER NOT NULL,

    CONSTRAINT "NotificationAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationActionUse" (
    "nonce" TEXT NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "usedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NotificationActionUse_pkey" PRIMARY KEY ("nonce")
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
