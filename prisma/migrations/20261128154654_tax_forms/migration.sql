-- CreateTable
CREATE TABLE "TaxForm" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "currentKey" TEXT,
    "fields" TEXT NOT NULL,
    "tinSealed" TEXT NOT NULL,
    "tinType" TEXT NOT NULL,
    "tinLast4" TEXT NOT NULL,
    "signatureName" TEXT NOT NULL,
    "signedAt" DATETIME NOT NULL,
    "signerIp" TEXT NOT NULL,
    "signerAgent" TEXT NOT NULL,
    "supersededAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TaxForm_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TaxForm_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "TaxForm_currentKey_key" ON "TaxForm"("currentKey");

-- CreateIndex
CREATE INDEX "TaxForm_shopId_kind_currentKey_idx" ON "TaxForm"("shopId", "kind", "currentKey");

-- CreateIndex
CREATE INDEX "TaxForm_affiliateId_createdAt_idx" ON "TaxForm"("affiliateId", "createdAt");

