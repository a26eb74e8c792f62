-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "autoApplyDiscount" BOOLEAN NOT NULL DEFAULT false;

