-- AlterTable
ALTER TABLE "Skill" ADD COLUMN "allowedToolsJson" TEXT;
ALTER TABLE "Skill" ADD COLUMN "permissionMode" TEXT;

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "runError" TEXT;
ALTER TABLE "Agent" ADD COLUMN "runStartedAt" DATETIME;
