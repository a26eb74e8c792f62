-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "portalDomain" TEXT;

-- AlterTable
ALTER TABLE "Affiliate" ADD COLUMN     "language" TEXT,
ADD COLUMN     "signupAnswers" TEXT NOT NULL DEFAULT '{}',
ADD COLUMN     "termsAcceptedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "AffiliateSession" (
    "id" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "data" TEXT NOT NULL DEFAULT '{}',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AffiliateSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AffiliateToken" (
    "id" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AffiliateToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Product" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "gid" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "imageUrl" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PortalPage" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "draft" TEXT NOT NULL DEFAULT '{}',
    "published" TEXT,
    "publishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PortalPage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxEmail" (
    "id" TEXT NOT NULL,
    "shopId" TEXT,
    "toAddress" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutboxEmail_pkey" PRIMARY KEY ("id")
);

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

-- AddForeignKey
ALTER TABLE "AffiliateSession" ADD CONSTRAINT "AffiliateSession_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AffiliateToken" ADD CONSTRAINT "AffiliateToken_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PortalPage" ADD CONSTRAINT "PortalPage_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutboxEmail" ADD CONSTRAINT "OutboxEmail_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

