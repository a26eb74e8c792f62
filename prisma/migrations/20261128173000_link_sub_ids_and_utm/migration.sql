-- AlterTable
ALTER TABLE "Click" ADD COLUMN "linkTags" TEXT;
ALTER TABLE "Click" ADD COLUMN "subId" TEXT;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN "linkTags" TEXT;
ALTER TABLE "Order" ADD COLUMN "subId" TEXT;

