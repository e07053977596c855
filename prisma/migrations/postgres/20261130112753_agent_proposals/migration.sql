-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "mcpServersJson" TEXT,
ADD COLUMN     "proposalId" INTEGER,
ADD COLUMN     "unquarantinedAt" TIMESTAMP(3),
ADD COLUMN     "unquarantinedBy" INTEGER;
