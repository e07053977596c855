-- CreateTable
CREATE TABLE "RunnerToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "statusJson" TEXT,
    "lastSeenAt" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Skill" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "systemPrompt" TEXT NOT NULL,
    "toolsJson" TEXT NOT NULL DEFAULT '[]',
    "model" TEXT,
    "builtin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "runtime" TEXT NOT NULL DEFAULT 'claude-code',
    "commandJson" TEXT,
    "envJson" TEXT
);
INSERT INTO "new_Skill" ("builtin", "createdAt", "description", "id", "model", "name", "systemPrompt", "toolsJson", "updatedAt") SELECT "builtin", "createdAt", "description", "id", "model", "name", "systemPrompt", "toolsJson", "updatedAt" FROM "Skill";
DROP TABLE "Skill";
ALTER TABLE "new_Skill" RENAME TO "Skill";
CREATE UNIQUE INDEX "Skill_name_key" ON "Skill"("name");
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
    "proposalId" INTEGER,
    "mcpServersJson" TEXT,
    "unquarantinedAt" DATETIME,
    "unquarantinedBy" INTEGER,
    "runnerManaged" BOOLEAN NOT NULL DEFAULT false,
    "runState" TEXT,
    "runnerInstance" TEXT,
    "launchSeq" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" DATETIME,
    "crashStreak" INTEGER NOT NULL DEFAULT 0,
    "relaunchAt" DATETIME,
    "runtimeSessionId" TEXT,
    CONSTRAINT "Agent_goalId_fkey" FOREIGN KEY ("goalId") REFERENCES "Goal" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Agent_leaderId_fkey" FOREIGN KEY ("leaderId") REFERENCES "Agent" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Agent_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Agent" ("activePlanId", "autonomyTier", "configHash", "createdAt", "goalId", "id", "idleStage", "idleStageAt", "lastToolCallAt", "leaderId", "mcpServersJson", "model", "name", "planTaskId", "proposalId", "quarantinedAt", "reviewDetail", "reviewPending", "reviewPendingAt", "reviewStage", "reviewStageAt", "role", "skill", "spawnDepth", "status", "systemPrompt", "teamId", "termReqStage", "termReqStageAt", "terminateConsumed", "terminatePostedAt", "terminationRequested", "terminationRequestedAt", "toolScopeJson", "unquarantinedAt", "unquarantinedBy") SELECT "activePlanId", "autonomyTier", "configHash", "createdAt", "goalId", "id", "idleStage", "idleStageAt", "lastToolCallAt", "leaderId", "mcpServersJson", "model", "name", "planTaskId", "proposalId", "quarantinedAt", "reviewDetail", "reviewPending", "reviewPendingAt", "reviewStage", "reviewStageAt", "role", "skill", "spawnDepth", "status", "systemPrompt", "teamId", "termReqStage", "termReqStageAt", "terminateConsumed", "terminatePostedAt", "terminationRequested", "terminationRequestedAt", "toolScopeJson", "unquarantinedAt", "unquarantinedBy" FROM "Agent";
DROP TABLE "Agent";
ALTER TABLE "new_Agent" RENAME TO "Agent";
CREATE INDEX "Agent_leaderId_idx" ON "Agent"("leaderId");
CREATE INDEX "Agent_teamId_idx" ON "Agent"("teamId");
CREATE UNIQUE INDEX "Agent_goalId_name_key" ON "Agent"("goalId", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "RunnerToken_hash_key" ON "RunnerToken"("hash");
