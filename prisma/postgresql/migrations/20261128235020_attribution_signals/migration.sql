-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "attributionSignals" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "checkoutToken" TEXT;

-- CreateIndex
CREATE INDEX "Order_shopId_checkoutToken_idx" ON "Order"("shopId", "checkoutToken");

