-- AlterTable
ALTER TABLE "PortalPage" ADD COLUMN     "publishedVersion" INTEGER,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PortalPageVersion" (
    "id" TEXT NOT NULL,
    "shopId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PortalPageVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PortalPageVersion_shopId_idx" ON "PortalPageVersion"("shopId");

-- CreateIndex
CREATE UNIQUE INDEX "PortalPageVersion_pageId_version_key" ON "PortalPageVersion"("pageId", "version");

-- AddForeignKey
ALTER TABLE "PortalPageVersion" ADD CONSTRAINT "PortalPageVersion_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "PortalPage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

