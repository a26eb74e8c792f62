-- CreateTable
CREATE TABLE "LegacyLinkCode" (
    "code" TEXT NOT NULL PRIMARY KEY,
    "shopId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LegacyLinkCode_shopId_fkey" FOREIGN KEY ("shopId") REFERENCES "Shop" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LegacyLinkCode_shopId_idx" ON "LegacyLinkCode"("shopId");


-- The codes links of the old form (/r/{CODE}) were handed out for: each
-- code stays with the shop that made it first.
INSERT INTO "LegacyLinkCode" ("code", "shopId")
SELECT a."referralCode", a."shopId" FROM "Affiliate" a
WHERE NOT EXISTS (
    SELECT 1 FROM "Affiliate" b
    WHERE b."referralCode" = a."referralCode"
      AND (b."createdAt" < a."createdAt" OR (b."createdAt" = a."createdAt" AND b."id" < a."id"))
);
