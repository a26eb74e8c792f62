-- CreateTable
CREATE TABLE "DashboardHour" (
    "shopId" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "sales" INTEGER NOT NULL DEFAULT 0,
    "revenue" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "pendingSales" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DashboardHour_pkey" PRIMARY KEY ("shopId","hour")
);

-- CreateTable
CREATE TABLE "DashboardRollupState" (
    "shopId" TEXT NOT NULL,
    "watermark" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DashboardRollupState_pkey" PRIMARY KEY ("shopId")
);

-- CreateIndex
CREATE INDEX "Order_shopId_updatedAt_idx" ON "Order"("shopId", "updatedAt");

-- AddForeignKey
ALTER TABLE "DashboardHour" ADD CONSTRAINT "DashboardHour_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DashboardRollupState" ADD CONSTRAINT "DashboardRollupState_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

