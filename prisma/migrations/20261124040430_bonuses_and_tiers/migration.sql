-- CreateTable
CREATE TABLE "BonusRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "campaignId" TEXT,
    "metric" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "period" TEXT NOT NULL DEFAULT 'monthly',
    "rewardType" TEXT NOT NULL DEFAULT 'fixed',
    "rewardValue" INTEGER NOT NULL,
    "startsOn" TEXT NOT NULL,
    "endsOn" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "BonusRule_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TierRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "campaignId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "windowDays" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "TierRule_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TierMove" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "fromCampaignId" TEXT NOT NULL,
    "toCampaignId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "metricValue" INTEGER NOT NULL,
    "threshold" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TierMove_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "TierMove_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Commission" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "orderId" TEXT,
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
    "bonusRuleId" TEXT,
    "bonusKey" TEXT,
    CONSTRAINT "Commission_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Commission_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Commission_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Commission_payoutId_fkey" FOREIGN KEY ("payoutId") REFERENCES "Payout" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Commission_bonusRuleId_fkey" FOREIGN KEY ("bonusRuleId") REFERENCES "BonusRule" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Commission" ("affiliateId", "amount", "createdAt", "currency", "explanation", "id", "kind", "level", "orderId", "payoutId", "shopId", "sourceRef", "status", "updatedAt") SELECT "affiliateId", "amount", "createdAt", "currency", "explanation", "id", "kind", "level", "orderId", "payoutId", "shopId", "sourceRef", "status", "updatedAt" FROM "Commission";
DROP TABLE "Commission";
ALTER TABLE "new_Commission" RENAME TO "Commission";
CREATE UNIQUE INDEX "Commission_bonusKey_key" ON "Commission"("bonusKey");
CREATE INDEX "Commission_bonusRuleId_idx" ON "Commission"("bonusRuleId");
CREATE INDEX "Commission_shopId_status_idx" ON "Commission"("shopId", "status");
CREATE INDEX "Commission_affiliateId_status_idx" ON "Commission"("affiliateId", "status");
CREATE INDEX "Commission_payoutId_idx" ON "Commission"("payoutId");
CREATE UNIQUE INDEX "Commission_orderId_affiliateId_level_sourceRef_key" ON "Commission"("orderId", "affiliateId", "level", "sourceRef");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "BonusRule_shopId_status_idx" ON "BonusRule"("shopId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "TierRule_shopId_position_key" ON "TierRule"("shopId", "position");

-- CreateIndex
CREATE INDEX "TierMove_affiliateId_createdAt_idx" ON "TierMove"("affiliateId", "createdAt");

-- CreateIndex
CREATE INDEX "TierMove_shopId_createdAt_idx" ON "TierMove"("shopId", "createdAt");

