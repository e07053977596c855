-- AlterTable
ALTER TABLE "Goal" ADD COLUMN     "pausedAt" TIMESTAMP(3),
ADD COLUMN     "pausedReason" TEXT,
ADD COLUMN     "spentMicros" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "GoalTask" ADD COLUMN     "spentMicros" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Usage" ADD COLUMN     "billingType" TEXT NOT NULL DEFAULT 'api',
ADD COLUMN     "cacheReadTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cacheWriteTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "idempotencyKey" TEXT,
ADD COLUMN     "inputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "micros" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "model" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "outputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'agent';

-- CreateTable
CREATE TABLE "UsageBucket" (
    "id" SERIAL NOT NULL,
    "goalId" INTEGER NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "agentId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL DEFAULT 0,
    "billingCode" TEXT NOT NULL DEFAULT '',
    "model" TEXT NOT NULL,
    "billingType" TEXT NOT NULL,
    "reports" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "cacheReadTokens" INTEGER NOT NULL DEFAULT 0,
    "cacheWriteTokens" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "cents" INTEGER NOT NULL DEFAULT 0,
    "micros" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UsageBucket_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageBucket_goalId_hour_idx" ON "UsageBucket"("goalId", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "UsageBucket_goalId_hour_agentId_taskId_billingCode_model_bi_key" ON "UsageBucket"("goalId", "hour", "agentId", "taskId", "billingCode", "model", "billingType");

-- CreateIndex
CREATE UNIQUE INDEX "Usage_agentId_idempotencyKey_key" ON "Usage"("agentId", "idempotencyKey");
