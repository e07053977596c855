-- DropIndex
DROP INDEX "Skill_name_key";

-- AlterTable
ALTER TABLE "Skill" ADD COLUMN     "ownerId" INTEGER,
ADD COLUMN     "scope" TEXT;

-- issue 16 §2 (docs/teams.md, "Skills"): a built-in stays a built-in (no owner, scope "builtin") unless an
-- owner edited it (updatedAt moved past createdAt; the seed writes both alike): then it and every other
-- skill, all made by owners of a shared catalogue, go to the first owner (the operator), who keeps
-- using them; the start-up seed puts back the pristine built-in for everyone else. With no owner at all, a
-- non-built-in row stays unowned (scope "unowned:<id>"): no one sees or resolves it.
UPDATE "Skill" s SET
    "builtin" = (s."builtin" AND (s."updatedAt" = s."createdAt" OR o."id" IS NULL)),
    "ownerId" = CASE WHEN s."builtin" AND (s."updatedAt" = s."createdAt" OR o."id" IS NULL) THEN NULL ELSE o."id" END,
    "scope" = CASE WHEN s."builtin" AND (s."updatedAt" = s."createdAt" OR o."id" IS NULL) THEN 'builtin'
                   WHEN o."id" IS NULL THEN 'unowned:' || s."id"
                   ELSE 'owner:' || o."id" END
FROM (SELECT MIN("id") AS "id" FROM "User") o;
ALTER TABLE "Skill" ALTER COLUMN "scope" SET NOT NULL;

-- CreateIndex
CREATE INDEX "Skill_ownerId_idx" ON "Skill"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "Skill_scope_name_key" ON "Skill"("scope", "name");

-- AddForeignKey
ALTER TABLE "Skill" ADD CONSTRAINT "Skill_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
