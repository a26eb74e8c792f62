-- AlterTable
ALTER TABLE "Campaign" ADD COLUMN     "renewalCommissionType" TEXT,
ADD COLUMN     "renewalCommissionValue" INTEGER,
ADD COLUMN     "renewalLimit" INTEGER,
ADD COLUMN     "renewalPolicy" TEXT NOT NULL DEFAULT 'none';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "renewalNumber" INTEGER,
ADD COLUMN     "subscriptionContractGid" TEXT;

-- CreateTable
CREATE TABLE "SubscriptionContract" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "contractGid" TEXT NOT NULL,
    "originOrderGid" TEXT,
    "customerGid" TEXT,
    "status" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL DEFAULT '0',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SubscriptionContract_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SubscriptionContract_shopId_customerGid_idx" ON "SubscriptionContract"("shopId", "customerGid");

-- CreateIndex
CREATE UNIQUE INDEX "SubscriptionContract_shopId_contractGid_key" ON "SubscriptionContract"("shopId", "contractGid");

-- CreateIndex
CREATE INDEX "Order_shopId_subscriptionContractGid_idx" ON "Order"("shopId", "subscriptionContractGid");

-- AddForeignKey
ALTER TABLE "SubscriptionContract" ADD CONSTRAINT "SubscriptionContract_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

