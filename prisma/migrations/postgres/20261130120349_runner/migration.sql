-- AlterTable
ALTER TABLE "Skill" ADD COLUMN     "commandJson" TEXT,
ADD COLUMN     "envJson" TEXT,
ADD COLUMN     "runtime" TEXT NOT NULL DEFAULT 'claude-code';

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "crashStreak" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "launchSeq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "leaseUntil" TIMESTAMP(3),
ADD COLUMN     "relaunchAt" TIMESTAMP(3),
ADD COLUMN     "runState" TEXT,
ADD COLUMN     "runnerInstance" TEXT,
ADD COLUMN     "runnerManaged" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "runtimeSessionId" TEXT;

-- CreateTable
CREATE TABLE "RunnerToken" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "statusJson" TEXT,
    "lastSeenAt" TIMESTAMP(3),

    CONSTRAINT "RunnerToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RunnerToken_hash_key" ON "RunnerToken"("hash");
