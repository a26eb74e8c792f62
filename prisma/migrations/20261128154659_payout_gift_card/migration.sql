-- AlterTable
ALTER TABLE "Payout" ADD COLUMN "giftCardCode" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Payout_giftCardCode_key" ON "Payout"("giftCardCode");

