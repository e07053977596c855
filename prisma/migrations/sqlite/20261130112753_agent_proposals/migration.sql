-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "mcpServersJson" TEXT;
ALTER TABLE "Agent" ADD COLUMN "proposalId" INTEGER;
ALTER TABLE "Agent" ADD COLUMN "unquarantinedAt" DATETIME;
ALTER TABLE "Agent" ADD COLUMN "unquarantinedBy" INTEGER;
