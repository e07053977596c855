-- AlterTable
ALTER TABLE "Goal" ADD COLUMN     "taskCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksDone" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksFailed" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "idleStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "idleStageAt" TIMESTAMP(3),
ADD COLUMN     "reviewStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewStageAt" TIMESTAMP(3),
ADD COLUMN     "termReqStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "termReqStageAt" TIMESTAMP(3),
ADD COLUMN     "terminatePostedAt" TIMESTAMP(3),
ADD COLUMN     "terminationRequestedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Question" ADD COLUMN     "activityAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "answeredAt" TIMESTAMP(3),
ADD COLUMN     "hopsJson" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "origin" TEXT NOT NULL DEFAULT 'agent',
ADD COLUMN     "ownerId" INTEGER,
ADD COLUMN     "subjectLeaderId" INTEGER;

-- AlterTable
ALTER TABLE "GoalTask" ADD COLUMN     "completedAt" TIMESTAMP(3),
ADD COLUMN     "proposalId" INTEGER,
ADD COLUMN     "verdictReason" TEXT,
ADD COLUMN     "verifiedAt" TIMESTAMP(3),
ADD COLUMN     "verifiedBy" TEXT,
ADD COLUMN     "verifierKind" TEXT NOT NULL DEFAULT 'auto',
ADD COLUMN     "verifyClaimedBy" TEXT,
ADD COLUMN     "verifyLeaseUntil" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Proposal" ADD COLUMN     "decidedByUserId" INTEGER;

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lease_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "Question_ownerId_status_activityAt_idx" ON "Question"("ownerId", "status", "activityAt");

-- CreateIndex
CREATE INDEX "GoalTask_verifierKind_status_idx" ON "GoalTask"("verifierKind", "status");

-- CreateIndex
CREATE INDEX "Proposal_status_id_idx" ON "Proposal"("status", "id");
