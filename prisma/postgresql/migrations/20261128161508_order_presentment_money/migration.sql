-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "presentmentCurrency" TEXT,
ADD COLUMN     "presentmentRate" TEXT,
ADD COLUMN     "presentmentTotal" INTEGER;

