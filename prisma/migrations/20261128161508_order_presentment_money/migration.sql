-- AlterTable
ALTER TABLE "Order" ADD COLUMN "presentmentCurrency" TEXT;
ALTER TABLE "Order" ADD COLUMN "presentmentRate" TEXT;
ALTER TABLE "Order" ADD COLUMN "presentmentTotal" INTEGER;

