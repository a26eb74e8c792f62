-- AlterTable
ALTER TABLE "Affiliate" ADD COLUMN     "payoutCurrency" TEXT;

-- AlterTable
ALTER TABLE "Payout" ADD COLUMN     "payoutAmount" INTEGER,
ADD COLUMN     "payoutCurrency" TEXT,
ADD COLUMN     "payoutRate" TEXT,
ADD COLUMN     "payoutRateAt" TIMESTAMP(3),
ADD COLUMN     "payoutRateBy" TEXT,
ADD COLUMN     "payoutRateSource" TEXT;

-- CreateTable
CREATE TABLE "ExchangeRate" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "fromCurrency" TEXT NOT NULL,
    "toCurrency" TEXT NOT NULL,
    "rate" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'merchant',
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ExchangeRate_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ExchangeRate_shopId_fromCurrency_toCurrency_at_idx" ON "ExchangeRate"("shopId", "fromCurrency", "toCurrency", "at");

-- AddForeignKey
ALTER TABLE "ExchangeRate" ADD CONSTRAINT "ExchangeRate_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

