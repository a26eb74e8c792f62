-- CreateTable
CREATE TABLE "OrderClaim" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "orderId" TEXT,
    "openKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "method" TEXT NOT NULL,
    "orderNumber" TEXT,
    "orderDay" TEXT,
    "amount" INTEGER,
    "currency" TEXT,
    "message" TEXT NOT NULL DEFAULT '',
    "decidedAt" TIMESTAMP(3),
    "decidedBy" TEXT,
    "declineNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderClaim_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OrderClaim_shopId_status_createdAt_id_idx" ON "OrderClaim"("shopId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OrderClaim_shopId_affiliateId_createdAt_idx" ON "OrderClaim"("shopId", "affiliateId", "createdAt");

-- CreateIndex
CREATE INDEX "OrderClaim_orderId_idx" ON "OrderClaim"("orderId");

-- CreateIndex
CREATE UNIQUE INDEX "OrderClaim_shopId_affiliateId_openKey_key" ON "OrderClaim"("shopId", "affiliateId", "openKey");

-- AddForeignKey
ALTER TABLE "OrderClaim" ADD CONSTRAINT "OrderClaim_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderClaim" ADD CONSTRAINT "OrderClaim_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderClaim" ADD CONSTRAINT "OrderClaim_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE SET NULL ON UPDATE CASCADE;

