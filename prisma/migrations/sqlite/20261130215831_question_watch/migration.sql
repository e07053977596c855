-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    "watchStage" INTEGER NOT NULL DEFAULT 0,
    "watchStageAt" DATETIME,
    CONSTRAINT "Question_goalId_fkey" FOREIGN KEY ("goalId") REFERENCES "Goal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Question" ("activityAt", "answerText", "answeredAt", "answeredBy", "answersJson", "askerId", "chainJson", "context", "createdAt", "declineReason", "fingerprint", "goalId", "holderId", "hopsJson", "id", "origin", "ownerId", "questionsJson", "status", "subjectLeaderId", "updatedAt") SELECT "activityAt", "answerText", "answeredAt", "answeredBy", "answersJson", "askerId", "chainJson", "context", "createdAt", "declineReason", "fingerprint", "goalId", "holderId", "hopsJson", "id", "origin", "ownerId", "questionsJson", "status", "subjectLeaderId", "updatedAt" FROM "Question";
DROP TABLE "Question";
ALTER TABLE "new_Question" RENAME TO "Question";
CREATE INDEX "Question_goalId_status_idx" ON "Question"("goalId", "status");
CREATE INDEX "Question_askerId_fingerprint_idx" ON "Question"("askerId", "fingerprint");
CREATE INDEX "Question_ownerId_status_activityAt_idx" ON "Question"("ownerId", "status", "activityAt");
CREATE INDEX "Question_status_holderId_idx" ON "Question"("status", "holderId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
