-- CreateTable
CREATE TABLE "AffiliateTag" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AffiliateTag_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AffiliateTag_shopId_tag_idx" ON "AffiliateTag"("shopId", "tag");

-- CreateIndex
CREATE INDEX "AffiliateTag_affiliateId_idx" ON "AffiliateTag"("affiliateId");

-- CreateIndex
CREATE UNIQUE INDEX "AffiliateTag_shopId_affiliateId_tag_key" ON "AffiliateTag"("shopId", "affiliateId", "tag");

-- AddForeignKey
ALTER TABLE "AffiliateTag" ADD CONSTRAINT "AffiliateTag_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AffiliateTag" ADD CONSTRAINT "AffiliateTag_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

