-- AlterTable
ALTER TABLE "Commission" ADD COLUMN     "bonusKey" TEXT,
ADD COLUMN     "bonusRuleId" TEXT,
ALTER COLUMN "orderId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "BonusRule" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BonusRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TierRule" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "campaignId" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "windowDays" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TierRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TierMove" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "affiliateId" TEXT NOT NULL,
    "fromCampaignId" TEXT NOT NULL,
    "toCampaignId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "metricValue" INTEGER NOT NULL,
    "threshold" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TierMove_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BonusRule_shopId_status_idx" ON "BonusRule"("shopId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "TierRule_shopId_position_key" ON "TierRule"("shopId", "position");

-- CreateIndex
CREATE INDEX "TierMove_affiliateId_createdAt_idx" ON "TierMove"("affiliateId", "createdAt");

-- CreateIndex
CREATE INDEX "TierMove_shopId_createdAt_idx" ON "TierMove"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Commission_bonusKey_key" ON "Commission"("bonusKey");

-- CreateIndex
CREATE INDEX "Commission_bonusRuleId_idx" ON "Commission"("bonusRuleId");

-- AddForeignKey
ALTER TABLE "Commission" ADD CONSTRAINT "Commission_bonusRuleId_fkey" FOREIGN KEY ("bonusRuleId") REFERENCES "BonusRule"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BonusRule" ADD CONSTRAINT "BonusRule_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TierRule" ADD CONSTRAINT "TierRule_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TierMove" ADD CONSTRAINT "TierMove_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TierMove" ADD CONSTRAINT "TierMove_affiliateId_fkey" FOREIGN KEY ("affiliateId") REFERENCES "Affiliate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

