-- CreateTable
CREATE TABLE "ProductCollections" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "productGid" TEXT NOT NULL,
    "collectionGids" TEXT NOT NULL DEFAULT '[]',
    "fetchedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProductCollections_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ProductCollections_shopId_productGid_key" ON "ProductCollections"("shopId", "productGid");

-- AddForeignKey
ALTER TABLE "ProductCollections" ADD CONSTRAINT "ProductCollections_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop"("id") ON DELETE CASCADE ON UPDATE CASCADE;

