-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN "decidedByUserId" INTEGER;

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
    "budgetTokens" INTEGER,
    "spentCents" INTEGER NOT NULL DEFAULT 0,
    "spentTokens" INTEGER NOT NULL DEFAULT 0,
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
    CONSTRAINT "Goal_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Goal" ("budgetAlertedAt", "budgetCents", "budgetTokens", "channelId", "coordinatorAgentId", "coordinatorConfig", "createdAt", "description", "eventSeq", "id", "lastActivityAt", "maxSpawnDepth", "ownerId", "slug", "spentCents", "spentTokens", "status", "title", "updatedAt") SELECT "budgetAlertedAt", "budgetCents", "budgetTokens", "channelId", "coordinatorAgentId", "coordinatorConfig", "createdAt", "description", "eventSeq", "id", "lastActivityAt", "maxSpawnDepth", "ownerId", "slug", "spentCents", "spentTokens", "status", "title", "updatedAt" FROM "Goal";
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
    "budgetTokens" INTEGER,
    "budgetCents" INTEGER,
    "verifierJson" TEXT NOT NULL DEFAULT '{"kind":"auto"}',
    "ancestry" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'approved',
    "assigneeId" INTEGER,
    "claimedAt" DATETIME,
    "summary" TEXT,
    "artifactsJson" TEXT,
    "spentCents" INTEGER NOT NULL DEFAULT 0,
    "spentTokens" INTEGER NOT NULL DEFAULT 0,
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
    CONSTRAINT "GoalTask_goalId_fkey" FOREIGN KEY ("goalId") REFERENCES "Goal" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "GoalTask_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "GoalTask" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_GoalTask" ("acceptanceCriteria", "ancestry", "artifactsJson", "assigneeId", "billingCode", "budgetCents", "budgetTokens", "claimedAt", "createdAt", "depth", "description", "goalId", "id", "parentId", "spentCents", "spentTokens", "status", "summary", "title", "updatedAt", "verifierJson") SELECT "acceptanceCriteria", "ancestry", "artifactsJson", "assigneeId", "billingCode", "budgetCents", "budgetTokens", "claimedAt", "createdAt", "depth", "description", "goalId", "id", "parentId", "spentCents", "spentTokens", "status", "summary", "title", "updatedAt", "verifierJson" FROM "GoalTask";
DROP TABLE "GoalTask";
ALTER TABLE "new_GoalTask" RENAME TO "GoalTask";
CREATE INDEX "GoalTask_goalId_status_idx" ON "GoalTask"("goalId", "status");
CREATE INDEX "GoalTask_parentId_idx" ON "GoalTask"("parentId");
CREATE INDEX "GoalTask_verifierKind_status_idx" ON "GoalTask"("verifierKind", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Proposal_status_id_idx" ON "Proposal"("status", "id");
