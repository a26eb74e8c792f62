-- AlterTable
ALTER TABLE "Click" ADD COLUMN     "linkTags" TEXT,
ADD COLUMN     "subId" TEXT;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "linkTags" TEXT,
ADD COLUMN     "subId" TEXT;

