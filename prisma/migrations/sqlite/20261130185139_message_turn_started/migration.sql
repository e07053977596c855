-- AlterTable
ALTER TABLE "Message" ADD COLUMN "turnStartedAt" DATETIME;
