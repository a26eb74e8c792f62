-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "commissionTerms" TEXT NOT NULL DEFAULT '{}',
ADD COLUMN     "refundGids" TEXT NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "CustomerDataExport" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "customerKey" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CustomerDataExport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CustomerDataExport_shopId_requestId_key" ON "CustomerDataExport"("shopId", "requestId");

-- AddForeignKey
ALTER TABLE "CustomerDataExport" ADD CONSTRAINT "CustomerDataExport_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

