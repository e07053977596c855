-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN "decidedByUserId" INTEGER;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
