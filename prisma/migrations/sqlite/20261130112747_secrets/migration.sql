-- CreateTable
CREATE TABLE "ResourceRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "ownerId" INTEGER NOT NULL,
    "agentId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "messageId" INTEGER,
    "scopeType" TEXT,
    "scopeId" INTEGER,
    "declineReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Secret" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ownerId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "scopeType" TEXT NOT NULL,
    "scopeId" INTEGER NOT NULL,
    "ciphertext" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 1,
    "revokedAt" DATETIME,
    "lastUsedByAgentId" INTEGER,
    CONSTRAINT "Secret_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Secret" ("ciphertext", "createdAt", "id", "lastUsedAt", "name", "ownerId", "scopeId", "scopeType", "updatedAt") SELECT "ciphertext", "createdAt", "id", "lastUsedAt", "name", "ownerId", "scopeId", "scopeType", "updatedAt" FROM "Secret";
DROP TABLE "Secret";
ALTER TABLE "new_Secret" RENAME TO "Secret";
CREATE UNIQUE INDEX "Secret_scopeType_scopeId_name_key" ON "Secret"("scopeType", "scopeId", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ResourceRequest_ownerId_status_idx" ON "ResourceRequest"("ownerId", "status");

-- CreateIndex
CREATE INDEX "ResourceRequest_agentId_name_taskId_status_idx" ON "ResourceRequest"("agentId", "name", "taskId", "status");
