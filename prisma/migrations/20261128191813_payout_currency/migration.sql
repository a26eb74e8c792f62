-- AlterTable
ALTER TABLE "Affiliate" ADD COLUMN "payoutCurrency" TEXT;

-- AlterTable
ALTER TABLE "Payout" ADD COLUMN "payoutAmount" INTEGER;
ALTER TABLE "Payout" ADD COLUMN "payoutCurrency" TEXT;
ALTER TABLE "Payout" ADD COLUMN "payoutRate" TEXT;
ALTER TABLE "Payout" ADD COLUMN "payoutRateAt" DATETIME;
ALTER TABLE "Payout" ADD COLUMN "payoutRateBy" TEXT;
ALTER TABLE "Payout" ADD COLUMN "payoutRateSource" TEXT;

-- CreateTable
CREATE TABLE "ExchangeRate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "fromCurrency" TEXT NOT NULL,
    "toCurrency" TEXT NOT NULL,
    "rate" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'merchant',
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExchangeRate_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ExchangeRate_shopId_fromCurrency_toCurrency_at_idx" ON "ExchangeRate"("shopId", "fromCurrency", "toCurrency", "at");

