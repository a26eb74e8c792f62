-- AlterTable
ALTER TABLE "Payout" ADD COLUMN "reconciledAt" DATETIME;

-- CreateTable
CREATE TABLE "PayoutRelease" (
    "payoutId" TEXT NOT NULL,
    "commissionId" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("payoutId", "commissionId"),
    CONSTRAINT "PayoutRelease_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PayoutRelease_payoutId_fkey" FOREIGN KEY ("payoutId") REFERENCES "Payout" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "PayoutRelease_commissionId_fkey" FOREIGN KEY ("commissionId") REFERENCES "Commission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PayoutRelease_commissionId_idx" ON "PayoutRelease"("commissionId");

-- CreateIndex
CREATE INDEX "PayoutRelease_shopId_idx" ON "PayoutRelease"("shopId");

-- CreateIndex
CREATE UNIQUE INDEX "Payout_paypalItemId_key" ON "Payout"("paypalItemId");

-- CreateIndex
CREATE UNIQUE INDEX "Payout_discountCode_key" ON "Payout"("discountCode");

-- CreateIndex
CREATE UNIQUE INDEX "Referral_rewardCode_key" ON "Referral"("rewardCode");

