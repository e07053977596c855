-- CreateTable
CREATE TABLE "UsageGoalHour" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "hour" DATETIME NOT NULL,
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
CREATE UNIQUE INDEX "UsageGoalHour_goalId_hour_billingType_key" ON "UsageGoalHour"("goalId", "hour", "billingType");

-- Backfill (hand-written): the goal-level hours of the spend already rolled up in "UsageBucket", with the
-- micro-cent fraction carried into cents exactly as recordUsage does.
INSERT INTO "UsageGoalHour" ("goalId", "hour", "billingType", "reports", "inputTokens", "outputTokens",
  "cacheReadTokens", "cacheWriteTokens", "tokens", "cents", "micros")
SELECT "goalId", "hour", "billingType", SUM("reports"), SUM("inputTokens"), SUM("outputTokens"),
  SUM("cacheReadTokens"), SUM("cacheWriteTokens"), SUM("tokens"),
  SUM("cents") + SUM("micros") / 1000000, SUM("micros") % 1000000
FROM "UsageBucket" GROUP BY "goalId", "hour", "billingType";
