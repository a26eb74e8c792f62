-- AlterTable
ALTER TABLE "Affiliate" ADD COLUMN     "payoutDetails" TEXT,
ADD COLUMN     "payoutDetailsMask" TEXT,
ADD COLUMN     "payoutMethod" TEXT;

