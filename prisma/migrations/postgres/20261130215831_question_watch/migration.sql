-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "watchStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "watchStageAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Question_status_holderId_idx" ON "Question"("status", "holderId");
