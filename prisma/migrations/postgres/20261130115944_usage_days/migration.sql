-- CreateTable
CREATE TABLE "UsageDay" (
    "id" SERIAL NOT NULL,
    "goalId" INTEGER NOT NULL,
    "day" TIMESTAMP(3) NOT NULL,
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

    CONSTRAINT "UsageDay_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsageDay_goalId_day_idx" ON "UsageDay"("goalId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "UsageDay_goalId_day_agentId_taskId_billingCode_model_billin_key" ON "UsageDay"("goalId", "day", "agentId", "taskId", "billingCode", "model", "billingType");
