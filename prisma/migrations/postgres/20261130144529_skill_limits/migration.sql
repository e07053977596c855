-- AlterTable
ALTER TABLE "Skill" ADD COLUMN     "maxCostCents" INTEGER,
ADD COLUMN     "maxMinutes" INTEGER,
ADD COLUMN     "maxTurns" INTEGER;
