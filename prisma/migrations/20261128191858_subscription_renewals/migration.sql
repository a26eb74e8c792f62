-- AlterTable
ALTER TABLE "Order" ADD COLUMN "renewalNumber" INTEGER;
ALTER TABLE "Order" ADD COLUMN "subscriptionContractGid" TEXT;

-- CreateTable
CREATE TABLE "SubscriptionContract" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "contractGid" TEXT NOT NULL,
    "originOrderGid" TEXT,
    "customerGid" TEXT,
    "status" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL DEFAULT '0',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "SubscriptionContract_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Campaign" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "commissionType" TEXT NOT NULL DEFAULT 'percent',
    "commissionValue" INTEGER NOT NULL DEFAULT 1000,
    "newCustomerValue" INTEGER,
    "cookieDays" INTEGER NOT NULL DEFAULT 30,
    "autoApproveAffiliates" BOOLEAN NOT NULL DEFAULT false,
    "autoApproveOrders" BOOLEAN NOT NULL DEFAULT false,
    "approvalHoldDays" INTEGER NOT NULL DEFAULT 0,
    "lifetimeCustomerLink" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "couponEnabled" BOOLEAN NOT NULL DEFAULT false,
    "couponDiscountType" TEXT NOT NULL DEFAULT 'percentage',
    "couponDiscountValue" INTEGER NOT NULL DEFAULT 1000,
    "couponPrefix" TEXT NOT NULL DEFAULT '',
    "couponOncePerCustomer" BOOLEAN NOT NULL DEFAULT true,
    "renewalPolicy" TEXT NOT NULL DEFAULT 'none',
    "renewalLimit" INTEGER,
    "renewalCommissionType" TEXT,
    "renewalCommissionValue" INTEGER,
    CONSTRAINT "Campaign_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Campaign" ("approvalHoldDays", "autoApproveAffiliates", "autoApproveOrders", "commissionType", "commissionValue", "cookieDays", "couponDiscountType", "couponDiscountValue", "couponEnabled", "couponOncePerCustomer", "couponPrefix", "createdAt", "id", "isDefault", "lifetimeCustomerLink", "name", "newCustomerValue", "shopId", "status", "updatedAt") SELECT "approvalHoldDays", "autoApproveAffiliates", "autoApproveOrders", "commissionType", "commissionValue", "cookieDays", "couponDiscountType", "couponDiscountValue", "couponEnabled", "couponOncePerCustomer", "couponPrefix", "createdAt", "id", "isDefault", "lifetimeCustomerLink", "name", "newCustomerValue", "shopId", "status", "updatedAt" FROM "Campaign";
DROP TABLE "Campaign";
ALTER TABLE "new_Campaign" RENAME TO "Campaign";
CREATE INDEX "Campaign_shopId_status_idx" ON "Campaign"("shopId", "status");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "SubscriptionContract_shopId_customerGid_idx" ON "SubscriptionContract"("shopId", "customerGid");

-- CreateIndex
CREATE UNIQUE INDEX "SubscriptionContract_shopId_contractGid_key" ON "SubscriptionContract"("shopId", "contractGid");

-- CreateIndex
CREATE INDEX "Order_shopId_subscriptionContractGid_idx" ON "Order"("shopId", "subscriptionContractGid");

