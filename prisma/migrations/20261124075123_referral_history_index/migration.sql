-- CreateIndex
CREATE INDEX "Referral_shopId_createdAt_idx" ON "Referral"("shopId", "createdAt");

