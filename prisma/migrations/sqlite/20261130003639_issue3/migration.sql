-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
