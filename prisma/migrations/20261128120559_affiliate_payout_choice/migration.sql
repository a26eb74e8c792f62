-- AlterTable
ALTER TABLE "Affiliate" ADD COLUMN "payoutDetails" TEXT;
ALTER TABLE "Affiliate" ADD COLUMN "payoutDetailsMask" TEXT;
ALTER TABLE "Affiliate" ADD COLUMN "payoutMethod" TEXT;

