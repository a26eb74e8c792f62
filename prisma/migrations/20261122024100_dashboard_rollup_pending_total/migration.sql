-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DashboardRollupState" (
    "shopId" TEXT NOT NULL PRIMARY KEY,
    "watermark" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "pendingSales" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "DashboardRollupState_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_DashboardRollupState" ("shopId", "updatedAt", "watermark") SELECT "shopId", "updatedAt", "watermark" FROM "DashboardRollupState";
DROP TABLE "DashboardRollupState";
ALTER TABLE "new_DashboardRollupState" RENAME TO "DashboardRollupState";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

