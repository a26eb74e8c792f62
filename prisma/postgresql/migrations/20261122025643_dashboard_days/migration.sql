-- AlterTable
ALTER TABLE "DashboardRollupState" ADD COLUMN     "dayZone" TEXT;

-- CreateTable
CREATE TABLE "DashboardDay" (
    "shopId" TEXT NOT NULL,
    "day" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "sales" INTEGER NOT NULL DEFAULT 0,
    "revenue" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "pendingSales" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DashboardDay_pkey" PRIMARY KEY ("shopId","day")
);

-- AddForeignKey
ALTER TABLE "DashboardDay" ADD CONSTRAINT "DashboardDay_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

