-- CreateIndex
CREATE INDEX "Order_shopId_customerGid_idx" ON "Order"("shopId", "customerGid");

-- CreateIndex
CREATE INDEX "Order_shopId_customerEmail_idx" ON "Order"("shopId", "customerEmail");

