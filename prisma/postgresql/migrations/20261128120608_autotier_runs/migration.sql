-- AlterTable
ALTER TABLE "TierMove" ADD COLUMN     "reasonKey" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "reasonValues" TEXT NOT NULL DEFAULT '{}',
ADD COLUMN     "runId" TEXT,
ADD COLUMN     "undo" TEXT,
ALTER COLUMN "reason" SET DEFAULT '';

-- CreateTable
CREATE TABLE "TierRun" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "moved" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "undoneAt" TIMESTAMP(3),
    "undoneBy" TEXT,
    "restored" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TierRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TierRun_shopId_createdAt_idx" ON "TierRun"("shopId", "createdAt");

-- CreateIndex
CREATE INDEX "TierMove_runId_idx" ON "TierMove"("runId");

-- AddForeignKey
ALTER TABLE "TierMove" ADD CONSTRAINT "TierMove_runId_fkey" FOREIGN KEY ("runId") REFERENCES "TierRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TierRun" ADD CONSTRAINT "TierRun_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

