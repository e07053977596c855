-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Goal" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "slug" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "ownerId" INTEGER NOT NULL,
    "channelId" INTEGER,
    "coordinatorAgentId" INTEGER,
    "budgetCents" INTEGER,
    "budgetTokens" BIGINT,
    "spentCents" INTEGER NOT NULL DEFAULT 0,
    "spentTokens" BIGINT NOT NULL DEFAULT 0,
    "budgetAlertedAt" DATETIME,
    "maxSpawnDepth" INTEGER NOT NULL DEFAULT 3,
    "coordinatorConfig" TEXT NOT NULL DEFAULT 'default',
    "eventSeq" INTEGER NOT NULL DEFAULT 0,
    "taskCount" INTEGER NOT NULL DEFAULT 0,
    "tasksDone" INTEGER NOT NULL DEFAULT 0,
    "tasksFailed" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastActivityAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "spentMicros" INTEGER NOT NULL DEFAULT 0,
    "pausedReason" TEXT,
    "pausedAt" DATETIME,
    CONSTRAINT "Goal_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Goal" ("budgetAlertedAt", "budgetCents", "budgetTokens", "channelId", "coordinatorAgentId", "coordinatorConfig", "createdAt", "description", "eventSeq", "id", "lastActivityAt", "maxSpawnDepth", "ownerId", "pausedAt", "pausedReason", "slug", "spentCents", "spentMicros", "spentTokens", "status", "taskCount", "tasksDone", "tasksFailed", "title", "updatedAt") SELECT "budgetAlertedAt", "budgetCents", "budgetTokens", "channelId", "coordinatorAgentId", "coordinatorConfig", "createdAt", "description", "eventSeq", "id", "lastActivityAt", "maxSpawnDepth", "ownerId", "pausedAt", "pausedReason", "slug", "spentCents", "spentMicros", "spentTokens", "status", "taskCount", "tasksDone", "tasksFailed", "title", "updatedAt" FROM "Goal";
DROP TABLE "Goal";
ALTER TABLE "new_Goal" RENAME TO "Goal";
CREATE UNIQUE INDEX "Goal_slug_key" ON "Goal"("slug");
CREATE UNIQUE INDEX "Goal_channelId_key" ON "Goal"("channelId");
CREATE UNIQUE INDEX "Goal_coordinatorAgentId_key" ON "Goal"("coordinatorAgentId");
CREATE INDEX "Goal_ownerId_idx" ON "Goal"("ownerId");
CREATE TABLE "new_GoalTask" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "parentId" INTEGER,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "acceptanceCriteria" TEXT,
    "billingCode" TEXT,
    "budgetTokens" BIGINT,
    "budgetCents" INTEGER,
    "verifierJson" TEXT NOT NULL DEFAULT '{"kind":"auto"}',
    "ancestry" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'approved',
    "assigneeId" INTEGER,
    "claimedAt" DATETIME,
    "summary" TEXT,
    "artifactsJson" TEXT,
    "spentCents" INTEGER NOT NULL DEFAULT 0,
    "spentTokens" BIGINT NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "proposalId" INTEGER,
    "verifierKind" TEXT NOT NULL DEFAULT 'auto',
    "verifyClaimedBy" TEXT,
    "verifyLeaseUntil" DATETIME,
    "completedAt" DATETIME,
    "verifiedAt" DATETIME,
    "verifiedBy" TEXT,
    "verdictReason" TEXT,
    "spentMicros" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "GoalTask_goalId_fkey" FOREIGN KEY ("goalId") REFERENCES "Goal" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GoalTask_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "GoalTask" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_GoalTask" ("acceptanceCriteria", "ancestry", "artifactsJson", "assigneeId", "billingCode", "budgetCents", "budgetTokens", "claimedAt", "completedAt", "createdAt", "depth", "description", "goalId", "id", "parentId", "proposalId", "spentCents", "spentMicros", "spentTokens", "status", "summary", "title", "updatedAt", "verdictReason", "verifiedAt", "verifiedBy", "verifierJson", "verifierKind", "verifyClaimedBy", "verifyLeaseUntil") SELECT "acceptanceCriteria", "ancestry", "artifactsJson", "assigneeId", "billingCode", "budgetCents", "budgetTokens", "claimedAt", "completedAt", "createdAt", "depth", "description", "goalId", "id", "parentId", "proposalId", "spentCents", "spentMicros", "spentTokens", "status", "summary", "title", "updatedAt", "verdictReason", "verifiedAt", "verifiedBy", "verifierJson", "verifierKind", "verifyClaimedBy", "verifyLeaseUntil" FROM "GoalTask";
DROP TABLE "GoalTask";
ALTER TABLE "new_GoalTask" RENAME TO "GoalTask";
CREATE INDEX "GoalTask_goalId_status_idx" ON "GoalTask"("goalId", "status");
CREATE INDEX "GoalTask_parentId_idx" ON "GoalTask"("parentId");
CREATE INDEX "GoalTask_verifierKind_status_idx" ON "GoalTask"("verifierKind", "status");
CREATE TABLE "new_UsageBucket" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "hour" DATETIME NOT NULL,
    "agentId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL DEFAULT 0,
    "billingCode" TEXT NOT NULL DEFAULT '',
    "model" TEXT NOT NULL,
    "billingType" TEXT NOT NULL,
    "reports" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "cacheReadTokens" BIGINT NOT NULL DEFAULT 0,
    "cacheWriteTokens" BIGINT NOT NULL DEFAULT 0,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "cents" INTEGER NOT NULL DEFAULT 0,
    "micros" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_UsageBucket" ("agentId", "billingCode", "billingType", "cacheReadTokens", "cacheWriteTokens", "cents", "goalId", "hour", "id", "inputTokens", "micros", "model", "outputTokens", "reports", "taskId", "tokens") SELECT "agentId", "billingCode", "billingType", "cacheReadTokens", "cacheWriteTokens", "cents", "goalId", "hour", "id", "inputTokens", "micros", "model", "outputTokens", "reports", "taskId", "tokens" FROM "UsageBucket";
DROP TABLE "UsageBucket";
ALTER TABLE "new_UsageBucket" RENAME TO "UsageBucket";
CREATE INDEX "UsageBucket_goalId_hour_idx" ON "UsageBucket"("goalId", "hour");
CREATE UNIQUE INDEX "UsageBucket_goalId_hour_agentId_taskId_billingCode_model_billingType_key" ON "UsageBucket"("goalId", "hour", "agentId", "taskId", "billingCode", "model", "billingType");
CREATE TABLE "new_UsageDay" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "day" DATETIME NOT NULL,
    "agentId" INTEGER NOT NULL,
    "taskId" INTEGER NOT NULL DEFAULT 0,
    "billingCode" TEXT NOT NULL DEFAULT '',
    "model" TEXT NOT NULL,
    "billingType" TEXT NOT NULL,
    "reports" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "cacheReadTokens" BIGINT NOT NULL DEFAULT 0,
    "cacheWriteTokens" BIGINT NOT NULL DEFAULT 0,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "cents" INTEGER NOT NULL DEFAULT 0,
    "micros" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_UsageDay" ("agentId", "billingCode", "billingType", "cacheReadTokens", "cacheWriteTokens", "cents", "day", "goalId", "id", "inputTokens", "micros", "model", "outputTokens", "reports", "taskId", "tokens") SELECT "agentId", "billingCode", "billingType", "cacheReadTokens", "cacheWriteTokens", "cents", "day", "goalId", "id", "inputTokens", "micros", "model", "outputTokens", "reports", "taskId", "tokens" FROM "UsageDay";
DROP TABLE "UsageDay";
ALTER TABLE "new_UsageDay" RENAME TO "UsageDay";
CREATE INDEX "UsageDay_goalId_day_idx" ON "UsageDay"("goalId", "day");
CREATE UNIQUE INDEX "UsageDay_goalId_day_agentId_taskId_billingCode_model_billingType_key" ON "UsageDay"("goalId", "day", "agentId", "taskId", "billingCode", "model", "billingType");
CREATE TABLE "new_UsageGoalHour" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "hour" DATETIME NOT NULL,
    "billingType" TEXT NOT NULL,
    "reports" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" BIGINT NOT NULL DEFAULT 0,
    "outputTokens" BIGINT NOT NULL DEFAULT 0,
    "cacheReadTokens" BIGINT NOT NULL DEFAULT 0,
    "cacheWriteTokens" BIGINT NOT NULL DEFAULT 0,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "cents" INTEGER NOT NULL DEFAULT 0,
    "micros" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_UsageGoalHour" ("billingType", "cacheReadTokens", "cacheWriteTokens", "cents", "goalId", "hour", "id", "inputTokens", "micros", "outputTokens", "reports", "tokens") SELECT "billingType", "cacheReadTokens", "cacheWriteTokens", "cents", "goalId", "hour", "id", "inputTokens", "micros", "outputTokens", "reports", "tokens" FROM "UsageGoalHour";
DROP TABLE "UsageGoalHour";
ALTER TABLE "new_UsageGoalHour" RENAME TO "UsageGoalHour";
CREATE UNIQUE INDEX "UsageGoalHour_goalId_hour_billingType_key" ON "UsageGoalHour"("goalId", "hour", "billingType");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
