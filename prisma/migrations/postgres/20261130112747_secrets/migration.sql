-- AlterTable
ALTER TABLE "Secret" ADD COLUMN     "lastUsedByAgentId" INTEGER,
ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "ResourceRequest" (
    "id" SERIAL NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "ResourceRequest_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ResourceRequest_ownerId_status_idx" ON "ResourceRequest"("ownerId", "status");

-- CreateIndex
CREATE INDEX "ResourceRequest_agentId_name_taskId_status_idx" ON "ResourceRequest"("agentId", "name", "taskId", "status");
