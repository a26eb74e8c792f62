-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "portalDomain" TEXT;

-- CreateTable
CREATE TABLE "AffiliateSession" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "affiliateId" TEXT NOT NULL,
    "data" TEXT NOT NULL DEFAULT '{}',
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AffiliateSession_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AffiliateToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "affiliateId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AffiliateToken_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Product" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "gid" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "imageUrl" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "updatedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Product_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PortalPage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "draft" TEXT NOT NULL DEFAULT '{}',
    "published" TEXT,
    "publishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PortalPage_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OutboxEmail" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT,
    "toAddress" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "sentAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OutboxEmail_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Affiliate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "parentId" TEXT,
    "email" TEXT NOT NULL,
    "firstName" TEXT NOT NULL,
    "lastName" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "referralCode" TEXT NOT NULL,
    "paypalEmail" TEXT,
    "website" TEXT,
    "customerGid" TEXT,
    "passwordHash" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "signupAnswers" TEXT NOT NULL DEFAULT '{}',
    "termsAcceptedAt" DATETIME,
    "language" TEXT,
    CONSTRAINT "Affiliate_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Affiliate_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Affiliate_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Affiliate" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Affiliate" ("campaignId", "createdAt", "customerGid", "email", "firstName", "id", "lastName", "parentId", "passwordHash", "paypalEmail", "referralCode", "shopId", "status", "updatedAt", "website") SELECT "campaignId", "createdAt", "customerGid", "email", "firstName", "id", "lastName", "parentId", "passwordHash", "paypalEmail", "referralCode", "shopId", "status", "updatedAt", "website" FROM "Affiliate";
DROP TABLE "Affiliate";
ALTER TABLE "new_Affiliate" RENAME TO "Affiliate";
CREATE INDEX "Affiliate_referralCode_idx" ON "Affiliate"("referralCode");
CREATE INDEX "Affiliate_shopId_status_idx" ON "Affiliate"("shopId", "status");
CREATE INDEX "Affiliate_campaignId_idx" ON "Affiliate"("campaignId");
CREATE INDEX "Affiliate_parentId_idx" ON "Affiliate"("parentId");
CREATE UNIQUE INDEX "Affiliate_shopId_referralCode_key" ON "Affiliate"("shopId", "referralCode");
CREATE UNIQUE INDEX "Affiliate_shopId_email_key" ON "Affiliate"("shopId", "email");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "AffiliateSession_affiliateId_idx" ON "AffiliateSession"("affiliateId");

-- CreateIndex
CREATE INDEX "AffiliateSession_expiresAt_idx" ON "AffiliateSession"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "AffiliateToken_tokenHash_key" ON "AffiliateToken"("tokenHash");

-- CreateIndex
CREATE INDEX "AffiliateToken_affiliateId_idx" ON "AffiliateToken"("affiliateId");

-- CreateIndex
CREATE INDEX "Product_shopId_status_title_idx" ON "Product"("shopId", "status", "title");

-- CreateIndex
CREATE UNIQUE INDEX "Product_shopId_gid_key" ON "Product"("shopId", "gid");

-- CreateIndex
CREATE UNIQUE INDEX "PortalPage_shopId_kind_key" ON "PortalPage"("shopId", "kind");

-- CreateIndex
CREATE INDEX "OutboxEmail_shopId_createdAt_idx" ON "OutboxEmail"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Shop_portalDomain_key" ON "Shop"("portalDomain");

