-- AlterTable
ALTER TABLE "Coupon" ADD COLUMN "disabledAt" DATETIME;

-- AlterTable
ALTER TABLE "Order" ADD COLUMN "codeOnly" BOOLEAN;
ALTER TABLE "Order" ADD COLUMN "leakHoldId" TEXT;
ALTER TABLE "Order" ADD COLUMN "referringHost" TEXT;

-- CreateTable
CREATE TABLE "LeakFlag" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "openKey" TEXT,
    "reasonKey" TEXT NOT NULL,
    "reasonValues" TEXT NOT NULL DEFAULT '{}',
    "orderIds" TEXT NOT NULL DEFAULT '[]',
    "newCode" TEXT,
    "rotation" TEXT,
    "rotationError" TEXT,
    "decidedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "LeakFlag_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LeakFlag_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LeakFlag_shopId_status_createdAt_idx" ON "LeakFlag"("shopId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "LeakFlag_affiliateId_idx" ON "LeakFlag"("affiliateId");

-- CreateIndex
CREATE UNIQUE INDEX "LeakFlag_shopId_openKey_key" ON "LeakFlag"("shopId", "openKey");

-- CreateIndex
CREATE INDEX "Order_leakHoldId_idx" ON "Order"("leakHoldId");

