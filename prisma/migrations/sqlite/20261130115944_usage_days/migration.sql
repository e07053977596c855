-- CreateTable
CREATE TABLE "UsageDay" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "day" DATETIME NOT NULL,
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
    "micros" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE INDEX "UsageDay_goalId_day_idx" ON "UsageDay"("goalId", "day");

-- CreateIndex
CREATE UNIQUE INDEX "UsageDay_goalId_day_agentId_taskId_billingCode_model_billingType_key" ON "UsageDay"("goalId", "day", "agentId", "taskId", "billingCode", "model", "billingType");
