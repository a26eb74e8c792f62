-- AlterTable
ALTER TABLE "Payout" ADD COLUMN     "batchId" TEXT,
ADD COLUMN     "discountCode" TEXT,
ADD COLUMN     "failureReason" TEXT,
ADD COLUMN     "note" TEXT,
ADD COLUMN     "openKey" TEXT,
ADD COLUMN     "paypalItemId" TEXT,
ADD COLUMN     "paypalItemStatus" TEXT,
ADD COLUMN     "sentAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "PayoutBatch" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "paypalBatchId" TEXT,
    "paypalBatchStatus" TEXT,
    "createdBy" TEXT,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "totals" TEXT NOT NULL DEFAULT '[]',
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PayoutBatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PayoutEvent" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "payoutId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "actor" TEXT NOT NULL DEFAULT 'system',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PayoutEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PaypalConnection" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'sandbox',
    "clientId" TEXT NOT NULL,
    "secretEncrypted" TEXT NOT NULL,
    "accountInfo" TEXT NOT NULL DEFAULT '{}',
    "webhookId" TEXT,
    "verifiedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PaypalConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DomainEvent" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" TEXT NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DomainEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PayoutBatch_shopId_createdAt_idx" ON "PayoutBatch"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "PayoutEvent_payoutId_createdAt_idx" ON "PayoutEvent"("payoutId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PaypalConnection_shopId_key" ON "PaypalConnection"("shopId");

-- CreateIndex
CREATE INDEX "DomainEvent_shopId_createdAt_idx" ON "DomainEvent"("shopId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Payout_openKey_key" ON "Payout"("openKey");

-- CreateIndex
CREATE INDEX "Payout_batchId_idx" ON "Payout"("batchId");

-- AddForeignKey
ALTER TABLE "Payout" ADD CONSTRAINT "Payout_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "PayoutBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutBatch" ADD CONSTRAINT "PayoutBatch_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutEvent" ADD CONSTRAINT "PayoutEvent_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutEvent" ADD CONSTRAINT "PayoutEvent_payoutId_fkey" FOREIGN KEY ("payoutId") REFERENCES "Payout"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PaypalConnection" ADD CONSTRAINT "PaypalConnection_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DomainEvent" ADD CONSTRAINT "DomainEvent_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

