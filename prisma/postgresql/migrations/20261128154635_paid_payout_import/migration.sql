-- CreateTable
CREATE TABLE "PaidPayoutImport" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "actor" TEXT NOT NULL,
    "fileHash" TEXT NOT NULL,
    "rows" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "paid" INTEGER NOT NULL DEFAULT 0,
    "alreadyPaid" INTEGER NOT NULL DEFAULT 0,
    "refused" INTEGER NOT NULL DEFAULT 0,
    "report" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PaidPayoutImport_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PaidPayoutImport_shopId_createdAt_idx" ON "PaidPayoutImport"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "PaidPayoutImport_shopId_fileHash_idx" ON "PaidPayoutImport"("shopId", "fileHash");

-- AddForeignKey
ALTER TABLE "PaidPayoutImport" ADD CONSTRAINT "PaidPayoutImport_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

