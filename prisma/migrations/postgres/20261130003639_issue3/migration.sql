-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "idleStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "idleStageAt" TIMESTAMP(3),
ADD COLUMN     "reviewStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewStageAt" TIMESTAMP(3),
ADD COLUMN     "termReqStage" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "termReqStageAt" TIMESTAMP(3),
ADD COLUMN     "terminatePostedAt" TIMESTAMP(3),
ADD COLUMN     "terminationRequestedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lease_pkey" PRIMARY KEY ("name")
);
