-- CreateTable
CREATE TABLE "ReferralAlias" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReferralAlias_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReferralAlias_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AffiliateImport" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "rows" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "imported" INTEGER NOT NULL DEFAULT 0,
    "merged" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "report" TEXT NOT NULL DEFAULT '[]',
    "format" TEXT NOT NULL DEFAULT 'csv',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "AffiliateImport_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AffiliateImport" ("createdAt", "finishedAt", "id", "imported", "merged", "processed", "refused", "report", "rows", "shopId", "status", "total") SELECT "createdAt", "finishedAt", "id", "imported", "merged", "processed", "refused", "report", "rows", "shopId", "status", "total" FROM "AffiliateImport";
DROP TABLE "AffiliateImport";
ALTER TABLE "new_AffiliateImport" RENAME TO "AffiliateImport";
CREATE INDEX "AffiliateImport_shopId_createdAt_idx" ON "AffiliateImport"("shopId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ReferralAlias_affiliateId_idx" ON "ReferralAlias"("affiliateId");

-- CreateIndex
CREATE UNIQUE INDEX "ReferralAlias_shopId_code_key" ON "ReferralAlias"("shopId", "code");

