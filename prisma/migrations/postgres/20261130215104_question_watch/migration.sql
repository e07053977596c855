-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "watchStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "watchStageAt" TIMESTAMP(3);
