-- AlterTable
ALTER TABLE "AffiliateImport" ADD COLUMN     "format" TEXT NOT NULL DEFAULT 'csv';

-- CreateTable
CREATE TABLE "ReferralAlias" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReferralAlias_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReferralAlias_affiliateId_idx" ON "ReferralAlias"("affiliateId");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralAlias_shopId_code_key" ON "ReferralAlias"("shopId", "code");

-- AddForeignKey
ALTER TABLE "ReferralAlias" ADD CONSTRAINT "ReferralAlias_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReferralAlias" ADD CONSTRAINT "ReferralAlias_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

