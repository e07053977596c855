-- AlterTable
ALTER TABLE "Skill" ADD COLUMN     "allowedToolsJson" TEXT,
ADD COLUMN     "permissionMode" TEXT;

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "runError" TEXT,
ADD COLUMN     "runStartedAt" TIMESTAMP(3);
