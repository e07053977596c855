-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "turnStartedAt" TIMESTAMP(3);
