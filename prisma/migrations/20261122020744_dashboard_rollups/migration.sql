-- CreateTable
CREATE TABLE "DashboardHour" (
    "shopId" TEXT NOT NULL,
    "hour" INTEGER NOT NULL,
    "clicks" INTEGER NOT NULL DEFAULT 0,
    "sales" INTEGER NOT NULL DEFAULT 0,
    "revenue" BIGINT NOT NULL DEFAULT 0,
    "commission" BIGINT NOT NULL DEFAULT 0,
    "pendingSales" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("shopId", "hour"),
    CONSTRAINT "DashboardHour_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DashboardRollupState" (
    "shopId" TEXT NOT NULL PRIMARY KEY,
    "watermark" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DashboardRollupState_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Order_shopId_updatedAt_idx" ON "Order"("shopId", "updatedAt");

