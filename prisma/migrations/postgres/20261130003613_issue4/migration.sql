-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "activityAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "answeredAt" TIMESTAMP(3),
ADD COLUMN     "hopsJson" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'agent',
ADD COLUMN     "ownerId" INTEGER,
ADD COLUMN     "subjectLeaderId" INTEGER;

-- CreateIndex
CREATE INDEX "Question_ownerId_status_activityAt_idx" ON "Question"("ownerId", "status", "activityAt");
