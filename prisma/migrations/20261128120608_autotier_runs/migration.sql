-- CreateTable
CREATE TABLE "TierRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "moved" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "undoneAt" DATETIME,
    "undoneBy" TEXT,
    "restored" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "TierRun_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_TierMove" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "fromCampaignId" TEXT NOT NULL,
    "toCampaignId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "metricValue" INTEGER NOT NULL,
    "threshold" INTEGER NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "reasonKey" TEXT NOT NULL DEFAULT '',
    "reasonValues" TEXT NOT NULL DEFAULT '{}',
    "runId" TEXT,
    "undo" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TierMove_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TierMove_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TierMove_runId_fkey" FOREIGN KEY ("runId") REFERENCES "TierRun" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_TierMove" ("affiliateId", "createdAt", "direction", "fromCampaignId", "id", "metric", "metricValue", "reason", "shopId", "threshold", "toCampaignId") SELECT "affiliateId", "createdAt", "direction", "fromCampaignId", "id", "metric", "metricValue", "reason", "shopId", "threshold", "toCampaignId" FROM "TierMove";
DROP TABLE "TierMove";
ALTER TABLE "new_TierMove" RENAME TO "TierMove";
CREATE INDEX "TierMove_affiliateId_createdAt_idx" ON "TierMove"("affiliateId", "createdAt");
CREATE INDEX "TierMove_shopId_createdAt_idx" ON "TierMove"("shopId", "createdAt");
CREATE INDEX "TierMove_runId_idx" ON "TierMove"("runId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "TierRun_shopId_createdAt_idx" ON "TierRun"("shopId", "createdAt");

