-- CreateTable
CREATE TABLE "ProductCollections" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "productGid" TEXT NOT NULL,
    "collectionGids" TEXT NOT NULL DEFAULT '[]',
    "fetchedAt" DATETIME NOT NULL,
    CONSTRAINT "ProductCollections_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ProductCollections_shopId_productGid_key" ON "ProductCollections"("shopId", "productGid");

