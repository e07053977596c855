-- AlterTable
ALTER TABLE "Goal" ADD COLUMN     "taskCount" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksDone" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tasksFailed" INTEGER NOT NULL DEFAULT 0;

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

-- CreateIndex
CREATE INDEX "GoalTask_verifierKind_status_idx" ON "GoalTask"("verifierKind", "status");

-- CreateIndex
CREATE INDEX "Proposal_status_id_idx" ON "Proposal"("status", "id");
