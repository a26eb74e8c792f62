-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "billingSubscriptionId" TEXT;

