-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "couponDiscountType" TEXT NOT NULL DEFAULT 'percentage',
ADD COLUMN     "couponDiscountValue" INTEGER NOT NULL DEFAULT 1000,
ADD COLUMN     "couponEnabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "couponOncePerCustomer" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "couponPrefix" TEXT NOT NULL DEFAULT '';

-- CreateIndex
CREATE INDEX "Order_shopId_status_placedAt_idx" ON "Order"("shopId", "status", "placedAt");

-- CreateIndex
CREATE INDEX "Order_affiliateId_placedAt_idx" ON "Order"("affiliateId", "placedAt");

