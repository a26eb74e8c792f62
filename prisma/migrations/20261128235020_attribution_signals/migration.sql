-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "shopifyGid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "customerEmail" TEXT,
    "customerGid" TEXT,
    "currency" TEXT NOT NULL,
    "subtotal" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "fulfillment" TEXT,
    "affiliateId" TEXT,
    "attributionSource" TEXT NOT NULL DEFAULT 'none',
    "attributionReason" TEXT NOT NULL DEFAULT '',
    "clickId" TEXT,
    "subId" TEXT,
    "linkTags" TEXT,
    "discountCodes" TEXT NOT NULL DEFAULT '[]',
    "lines" TEXT NOT NULL DEFAULT '[]',
    "isNewCustomer" BOOLEAN NOT NULL DEFAULT false,
    "commissionTerms" TEXT NOT NULL DEFAULT '{}',
    "refundGids" TEXT NOT NULL DEFAULT '[]',
    "refundedAmount" INTEGER NOT NULL DEFAULT 0,
    "presentmentCurrency" TEXT,
    "presentmentTotal" INTEGER,
    "presentmentRate" TEXT,
    "cancelledAt" DATETIME,
    "approveAfter" DATETIME,
    "placedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "attributionReasonKey" TEXT NOT NULL DEFAULT '',
    "attributionReasonValues" TEXT NOT NULL DEFAULT '{}',
    "subscriptionContractGid" TEXT,
    "renewalNumber" INTEGER,
    "referringHost" TEXT,
    "codeOnly" BOOLEAN,
    "leakHoldId" TEXT,
    "attributionSignals" TEXT NOT NULL DEFAULT '',
    "checkoutToken" TEXT,
    CONSTRAINT "Order_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Order_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Order" ("affiliateId", "approveAfter", "attributionReason", "attributionReasonKey", "attributionReasonValues", "attributionSource", "cancelledAt", "clickId", "codeOnly", "commissionTerms", "createdAt", "currency", "customerEmail", "customerGid", "discountCodes", "fulfillment", "id", "isNewCustomer", "leakHoldId", "lines", "linkTags", "name", "placedAt", "presentmentCurrency", "presentmentRate", "presentmentTotal", "referringHost", "refundGids", "refundedAmount", "renewalNumber", "shopId", "shopifyGid", "status", "subId", "subscriptionContractGid", "subtotal", "total", "updatedAt") SELECT "affiliateId", "approveAfter", "attributionReason", "attributionReasonKey", "attributionReasonValues", "attributionSource", "cancelledAt", "clickId", "codeOnly", "commissionTerms", "createdAt", "currency", "customerEmail", "customerGid", "discountCodes", "fulfillment", "id", "isNewCustomer", "leakHoldId", "lines", "linkTags", "name", "placedAt", "presentmentCurrency", "presentmentRate", "presentmentTotal", "referringHost", "refundGids", "refundedAmount", "renewalNumber", "shopId", "shopifyGid", "status", "subId", "subscriptionContractGid", "subtotal", "total", "updatedAt" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE INDEX "Order_shopId_subscriptionContractGid_idx" ON "Order"("shopId", "subscriptionContractGid");
CREATE INDEX "Order_shopId_checkoutToken_idx" ON "Order"("shopId", "checkoutToken");
CREATE INDEX "Order_shopId_status_placedAt_idx" ON "Order"("shopId", "status", "placedAt");
CREATE INDEX "Order_leakHoldId_idx" ON "Order"("leakHoldId");
CREATE INDEX "Order_affiliateId_placedAt_idx" ON "Order"("affiliateId", "placedAt");
CREATE INDEX "Order_shopId_placedAt_idx" ON "Order"("shopId", "placedAt");
CREATE INDEX "Order_shopId_status_idx" ON "Order"("shopId", "status");
CREATE INDEX "Order_affiliateId_idx" ON "Order"("affiliateId");
CREATE INDEX "Order_shopId_customerGid_idx" ON "Order"("shopId", "customerGid");
CREATE INDEX "Order_shopId_customerEmail_idx" ON "Order"("shopId", "customerEmail");
CREATE INDEX "Order_shopId_updatedAt_idx" ON "Order"("shopId", "updatedAt");
CREATE INDEX "Order_evaluation_idx" ON "Order"("shopId", "affiliateId", "placedAt", "status", "currency", "subtotal", "refundedAmount");
CREATE INDEX "Order_shopId_status_createdAt_id_idx" ON "Order"("shopId", "status", "createdAt", "id");
CREATE INDEX "Order_shopId_createdAt_id_idx" ON "Order"("shopId", "createdAt", "id");
CREATE UNIQUE INDEX "Order_shopId_shopifyGid_key" ON "Order"("shopId", "shopifyGid");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

