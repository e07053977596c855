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
    "envJson" TEXT,
    "permissionMode" TEXT,
    "allowedToolsJson" TEXT,
    "maxTurns" INTEGER,
    "maxMinutes" INTEGER,
    "maxCostCents" INTEGER,
    "ownerId" INTEGER,
    "scope" TEXT NOT NULL,
    CONSTRAINT "Skill_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- issue 16 §2 (docs/teams.md, "Skills"): a built-in stays a built-in (no owner, scope "builtin") unless an
-- owner edited it (updatedAt moved past createdAt; the seed writes both alike): then it and every other
-- skill, all made by owners of a shared catalogue, go to the first owner (the operator), who keeps
-- using them; the start-up seed puts back the pristine built-in for everyone else. With no owner at all, a
-- non-built-in row stays unowned (scope "unowned:<id>"): no one sees or resolves it.
INSERT INTO "new_Skill" ("allowedToolsJson", "builtin", "commandJson", "createdAt", "description", "envJson", "id", "maxCostCents", "maxMinutes", "maxTurns", "model", "name", "permissionMode", "runtime", "systemPrompt", "toolsJson", "updatedAt", "ownerId", "scope")
SELECT s."allowedToolsJson",
    CASE WHEN s."builtin" AND (s."updatedAt" = s."createdAt" OR o."id" IS NULL) THEN 1 ELSE 0 END,
    s."commandJson", s."createdAt", s."description", s."envJson", s."id", s."maxCostCents", s."maxMinutes", s."maxTurns", s."model", s."name", s."permissionMode", s."runtime", s."systemPrompt", s."toolsJson", s."updatedAt",
    CASE WHEN s."builtin" AND (s."updatedAt" = s."createdAt" OR o."id" IS NULL) THEN NULL ELSE o."id" END,
    CASE WHEN s."builtin" AND (s."updatedAt" = s."createdAt" OR o."id" IS NULL) THEN 'builtin'
         WHEN o."id" IS NULL THEN 'unowned:' || s."id"
         ELSE 'owner:' || o."id" END
FROM "Skill" s LEFT JOIN (SELECT MIN("id") AS "id" FROM "User") o ON 1 = 1;
DROP TABLE "Skill";
ALTER TABLE "new_Skill" RENAME TO "Skill";
CREATE INDEX "Skill_ownerId_idx" ON "Skill"("ownerId");
CREATE UNIQUE INDEX "Skill_scope_name_key" ON "Skill"("scope", "name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
