-- DropIndex
DROP INDEX "Payout_shopId_status_idx";

-- CreateIndex
CREATE INDEX "Commission_unpaid_idx" ON "Commission"("shopId", "status", "payoutId", "affiliateId", "currency", "amount");

-- CreateIndex
CREATE INDEX "Order_shopId_status_createdAt_id_idx" ON "Order"("shopId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_shopId_createdAt_id_idx" ON "Order"("shopId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Payout_shopId_status_createdAt_id_idx" ON "Payout"("shopId", "status", "createdAt", "id");

