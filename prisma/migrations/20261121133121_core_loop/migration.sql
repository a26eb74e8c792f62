-- CreateTable
CREATE TABLE "CommissionRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "campaignId" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetGid" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'rate',
    "commissionType" TEXT NOT NULL DEFAULT 'percent',
    "value" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "CommissionRule_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "WebhookEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT,
    "shopDomain" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "apiVersion" TEXT,
    "payload" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" DATETIME,
    CONSTRAINT "WebhookEvent_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "uniqueKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "maxAttempts" INTEGER NOT NULL DEFAULT 8,
    "lockedUntil" DATETIME,
    "lockedBy" TEXT,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "CustomerLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "customerKey" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "CustomerLink_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "CustomerLink_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PixelEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "checkoutToken" TEXT NOT NULL,
    "orderGid" TEXT,
    "clickId" TEXT,
    "referralCode" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PixelEvent_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "appVersion" TEXT NOT NULL DEFAULT '0.1.0',
    "adminEmail" TEXT NOT NULL,
    "shopifyPlan" TEXT,
    "pricingPlan" TEXT,
    "needSelectPlan" BOOLEAN,
    "language" TEXT NOT NULL DEFAULT 'en',
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "moneyFormat" TEXT NOT NULL DEFAULT '${{amount}}',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "referralParam" TEXT NOT NULL DEFAULT 'ref',
    "attributionModel" TEXT NOT NULL DEFAULT 'last_click',
    "settings" TEXT NOT NULL DEFAULT '{}',
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("adminEmail", "appVersion", "createdAt", "currency", "domain", "id", "installedAt", "language", "moneyFormat", "name", "needSelectPlan", "pricingPlan", "referralParam", "settings", "shopifyPlan", "timezone", "uninstalledAt", "updatedAt", "url") SELECT "adminEmail", "appVersion", "createdAt", "currency", "domain", "id", "installedAt", "language", "moneyFormat", "name", "needSelectPlan", "pricingPlan", "referralParam", "settings", "shopifyPlan", "timezone", "uninstalledAt", "updatedAt", "url" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
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
    "discountCodes" TEXT NOT NULL DEFAULT '[]',
    "lines" TEXT NOT NULL DEFAULT '[]',
    "isNewCustomer" BOOLEAN NOT NULL DEFAULT false,
    "refundedAmount" INTEGER NOT NULL DEFAULT 0,
    "cancelledAt" DATETIME,
    "approveAfter" DATETIME,
    "placedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Order_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Order_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Order" ("affiliateId", "attributionReason", "attributionSource", "createdAt", "currency", "customerEmail", "customerGid", "fulfillment", "id", "name", "placedAt", "shopId", "shopifyGid", "status", "subtotal", "total", "updatedAt") SELECT "affiliateId", "attributionReason", "attributionSource", "createdAt", "currency", "customerEmail", "customerGid", "fulfillment", "id", "name", "placedAt", "shopId", "shopifyGid", "status", "subtotal", "total", "updatedAt" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE INDEX "Order_shopId_placedAt_idx" ON "Order"("shopId", "placedAt");
CREATE INDEX "Order_shopId_status_idx" ON "Order"("shopId", "status");
CREATE INDEX "Order_affiliateId_idx" ON "Order"("affiliateId");
CREATE UNIQUE INDEX "Order_shopId_shopifyGid_key" ON "Order"("shopId", "shopifyGid");
CREATE TABLE "new_Commission" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "level" INTEGER NOT NULL DEFAULT 1,
    "kind" TEXT NOT NULL DEFAULT 'sale',
    "sourceRef" TEXT NOT NULL DEFAULT '',
    "explanation" TEXT NOT NULL DEFAULT '',
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "payoutId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Commission_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Commission_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Commission_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Commission_payoutId_fkey" FOREIGN KEY ("payoutId") REFERENCES "Payout" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Commission" ("affiliateId", "amount", "createdAt", "currency", "id", "level", "orderId", "payoutId", "shopId", "status", "updatedAt") SELECT "affiliateId", "amount", "createdAt", "currency", "id", "level", "orderId", "payoutId", "shopId", "status", "updatedAt" FROM "Commission";
DROP TABLE "Commission";
ALTER TABLE "new_Commission" RENAME TO "Commission";
CREATE INDEX "Commission_shopId_status_idx" ON "Commission"("shopId", "status");
CREATE INDEX "Commission_affiliateId_status_idx" ON "Commission"("affiliateId", "status");
CREATE INDEX "Commission_payoutId_idx" ON "Commission"("payoutId");
CREATE UNIQUE INDEX "Commission_orderId_affiliateId_level_sourceRef_key" ON "Commission"("orderId", "affiliateId", "level", "sourceRef");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "CommissionRule_campaignId_targetType_targetGid_key" ON "CommissionRule"("campaignId", "targetType", "targetGid");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEvent_webhookId_key" ON "WebhookEvent"("webhookId");

-- CreateIndex
CREATE INDEX "WebhookEvent_shopDomain_topic_idx" ON "WebhookEvent"("shopDomain", "topic");

-- CreateIndex
CREATE UNIQUE INDEX "Job_uniqueKey_key" ON "Job"("uniqueKey");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- CreateIndex
CREATE INDEX "CustomerLink_affiliateId_idx" ON "CustomerLink"("affiliateId");

-- CreateIndex
CREATE UNIQUE INDEX "CustomerLink_shopId_customerKey_key" ON "CustomerLink"("shopId", "customerKey");

-- CreateIndex
CREATE UNIQUE INDEX "PixelEvent_shopId_checkoutToken_key" ON "PixelEvent"("shopId", "checkoutToken");

