-- AlterTable
ALTER TABLE "BonusRule" ADD COLUMN     "evaluatedThrough" TIMESTAMP(3);

