-- CreateTable
CREATE TABLE "PortalPageVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "publishedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PortalPageVersion_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "PortalPage" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PortalPage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "draft" TEXT NOT NULL DEFAULT '{}',
    "published" TEXT,
    "publishedAt" DATETIME,
    "version" INTEGER NOT NULL DEFAULT 0,
    "publishedVersion" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PortalPage_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_PortalPage" ("createdAt", "draft", "id", "kind", "published", "publishedAt", "shopId", "updatedAt") SELECT "createdAt", "draft", "id", "kind", "published", "publishedAt", "shopId", "updatedAt" FROM "PortalPage";
DROP TABLE "PortalPage";
ALTER TABLE "new_PortalPage" RENAME TO "PortalPage";
CREATE UNIQUE INDEX "PortalPage_shopId_kind_key" ON "PortalPage"("shopId", "kind");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PortalPageVersion_shopId_idx" ON "PortalPageVersion"("shopId");

-- CreateIndex
CREATE UNIQUE INDEX "PortalPageVersion_pageId_version_key" ON "PortalPageVersion"("pageId", "version");

