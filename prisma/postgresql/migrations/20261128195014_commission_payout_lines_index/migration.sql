-- DropIndex
DROP INDEX "Commission_payoutId_idx";

-- CreateIndex
CREATE INDEX "Commission_payoutId_shopId_amount_idx" ON "Commission"("payoutId", "shopId", "amount");

