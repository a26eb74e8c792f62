-- CreateIndex
CREATE INDEX "Commission_evaluation_affiliate_idx" ON "Commission"("shopId", "affiliateId", "createdAt", "status", "kind", "level", "currency", "amount", "orderId");

-- CreateIndex
CREATE INDEX "Commission_evaluation_order_idx" ON "Commission"("orderId", "kind", "status", "currency", "affiliateId", "amount");

-- CreateIndex
CREATE INDEX "Order_evaluation_idx" ON "Order"("shopId", "affiliateId", "placedAt", "status", "currency", "subtotal", "refundedAmount");

