-- CreateTable
CREATE TABLE "TaxForm" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "currentKey" TEXT,
    "fields" TEXT NOT NULL,
    "tinSealed" TEXT NOT NULL,
    "tinType" TEXT NOT NULL,
    "tinLast4" TEXT NOT NULL,
    "signatureName" TEXT NOT NULL,
    "signedAt" TIMESTAMP(3) NOT NULL,
    "signerIp" TEXT NOT NULL,
    "signerAgent" TEXT NOT NULL,
    "supersededAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TaxForm_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TaxForm_currentKey_key" ON "TaxForm"("currentKey");

-- CreateIndex
CREATE INDEX "TaxForm_shopId_kind_currentKey_idx" ON "TaxForm"("shopId", "kind", "currentKey");

-- CreateIndex
CREATE INDEX "TaxForm_affiliateId_createdAt_idx" ON "TaxForm"("affiliateId", "createdAt");

-- AddForeignKey
ALTER TABLE "TaxForm" ADD CONSTRAINT "TaxForm_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TaxForm" ADD CONSTRAINT "TaxForm_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

