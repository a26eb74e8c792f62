-- AlterTable
ALTER TABLE "CommissionRule" ADD COLUMN     "targetImageUrl" TEXT,
ADD COLUMN     "targetTitle" TEXT;

-- AlterTable
ALTER TABLE "Coupon" ADD COLUMN     "shopifyError" TEXT,
ADD COLUMN     "shopifyStatus" TEXT NOT NULL DEFAULT 'created';

-- AlterTable
ALTER TABLE "Product" ADD COLUMN     "price" INTEGER;

-- CreateTable
CREATE TABLE "Collection" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "gid" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "imageUrl" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Collection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Collection_shopId_title_idx" ON "Collection"("shopId", "title");

-- CreateIndex
CREATE UNIQUE INDEX "Collection_shopId_gid_key" ON "Collection"("shopId", "gid");

-- AddForeignKey
ALTER TABLE "Collection" ADD CONSTRAINT "Collection_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

