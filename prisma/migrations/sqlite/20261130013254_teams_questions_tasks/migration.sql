-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN "decidedByUserId" INTEGER;

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

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
CREATE TABLE "new_Agent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goalId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "skill" TEXT,
    "model" TEXT,
    "systemPrompt" TEXT,
    "toolScopeJson" TEXT,
    "autonomyTier" TEXT NOT NULL DEFAULT 'autonomous',
    "leaderId" INTEGER,
    "teamId" TEXT,
    "spawnDepth" INTEGER NOT NULL DEFAULT 0,
    "configHash" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "reviewPending" BOOLEAN NOT NULL DEFAULT false,
    "reviewPendingAt" DATETIME,
    "reviewDetail" TEXT,
    "terminationRequested" BOOLEAN NOT NULL DEFAULT false,
    "terminateConsumed" BOOLEAN NOT NULL DEFAULT false,
    "quarantinedAt" DATETIME,
    "activePlanId" TEXT,
    "planTaskId" TEXT,
    "lastToolCallAt" DATETIME,
    "terminatePostedAt" DATETIME,
    "terminationRequestedAt" DATETIME,
    "reviewStage" INTEGER NOT NULL DEFAULT 0,
    "reviewStageAt" DATETIME,
    "termReqStage" INTEGER NOT NULL DEFAULT 0,
    "termReqStageAt" DATETIME,
    "idleStage" INTEGER NOT NULL DEFAULT 0,
    "idleStageAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Agent_goalId_fkey" FOREIGN KEY ("goalId") REFERENCES "Goal" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Agent_leaderId_fkey" FOREIGN KEY ("leaderId") REFERENCES "Agent" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Agent_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Agent" ("activePlanId", "autonomyTier", "configHash", "createdAt", "goalId", "id", "lastToolCallAt", "leaderId", "model", "name", "planTaskId", "quarantinedAt", "reviewDetail", "reviewPending", "reviewPendingAt", "role", "skill", "spawnDepth", "status", "systemPrompt", "teamId", "terminateConsumed", "terminationRequested", "toolScopeJson") SELECT "activePlanId", "autonomyTier", "configHash", "createdAt", "goalId", "id", "lastToolCallAt", "leaderId", "model", "name", "planTaskId", "quarantinedAt", "reviewDetail", "reviewPending", "reviewPendingAt", "role", "skill", "spawnDepth", "status", "systemPrompt", "teamId", "terminateConsumed", "terminationRequested", "toolScopeJson" FROM "Agent";
DROP TABLE "Agent";
ALTER TABLE "new_Agent" RENAME TO "Agent";
CREATE INDEX "Agent_leaderId_idx" ON "Agent"("leaderId");
CREATE INDEX "Agent_teamId_idx" ON "Agent"("teamId");
CREATE UNIQUE INDEX "Agent_goalId_name_key" ON "Agent"("goalId", "name");
CREATE TABLE "new_Question" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "goalId" INTEGER NOT NULL,
    "askerId" INTEGER NOT NULL,
    "chainJson" TEXT NOT NULL DEFAULT '[]',
    "holderId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "questionsJson" TEXT NOT NULL,
    "context" TEXT,
    "fingerprint" TEXT NOT NULL,
    "answersJson" TEXT,
    "answerText" TEXT,
    "answeredBy" TEXT,
    "declineReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'agent',
    "subjectLeaderId" INTEGER,
    "hopsJson" TEXT NOT NULL DEFAULT '[]',
    "ownerId" INTEGER,
    "answeredAt" DATETIME,
    "activityAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Question_goalId_fkey" FOREIGN KEY ("goalId") REFERENCES "Goal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Question" ("answerText", "answeredBy", "answersJson", "askerId", "chainJson", "context", "createdAt", "declineReason", "fingerprint", "goalId", "holderId", "id", "questionsJson", "status", "updatedAt") SELECT "answerText", "answeredBy", "answersJson", "askerId", "chainJson", "context", "createdAt", "declineReason", "fingerprint", "goalId", "holderId", "id", "questionsJson", "status", "updatedAt" FROM "Question";
DROP TABLE "Question";
ALTER TABLE "new_Question" RENAME TO "Question";
CREATE INDEX "Question_goalId_status_idx" ON "Question"("goalId", "status");
CREATE INDEX "Question_askerId_fingerprint_idx" ON "Question"("askerId", "fingerprint");
CREATE INDEX "Question_ownerId_status_activityAt_idx" ON "Question"("ownerId", "status", "activityAt");
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
