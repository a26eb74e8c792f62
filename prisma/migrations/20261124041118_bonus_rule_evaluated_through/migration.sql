-- AlterTable
ALTER TABLE "BonusRule" ADD COLUMN "evaluatedThrough" DATETIME;

