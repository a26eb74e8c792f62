-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domain" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "appVersion" TEXT NOT NULL DEFAULT '0.1.0',
    "adminEmail" TEXT NOT NULL,
    "shopifyPlan" TEXT,
    "pricingPlan" TEXT,
    "needSelectPlan" BOOLEAN,
    "billingSubscriptionId" TEXT,
    "language" TEXT NOT NULL DEFAULT 'en',
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "moneyFormat" TEXT NOT NULL DEFAULT '${{amount}}',
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "referralParam" TEXT NOT NULL DEFAULT 'ref',
    "autoApplyDiscount" BOOLEAN NOT NULL DEFAULT false,
    "attributionModel" TEXT NOT NULL DEFAULT 'last_click',
    "settings" TEXT NOT NULL DEFAULT '{}',
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "webPixelId" TEXT,
    "webPixelUrl" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "portalDomain" TEXT,
    "portalDomainVerifiedAt" DATETIME,
    "portalDomainPending" TEXT,
    "portalDomainToken" TEXT,
    "translationsVersion" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_Shop" ("adminEmail", "appVersion", "attributionModel", "billingSubscriptionId", "createdAt", "currency", "domain", "id", "installedAt", "language", "moneyFormat", "name", "needSelectPlan", "portalDomain", "portalDomainPending", "portalDomainToken", "portalDomainVerifiedAt", "pricingPlan", "referralParam", "settings", "shopifyPlan", "timezone", "translationsVersion", "uninstalledAt", "updatedAt", "url", "webPixelId", "webPixelUrl") SELECT "adminEmail", "appVersion", "attributionModel", "billingSubscriptionId", "createdAt", "currency", "domain", "id", "installedAt", "language", "moneyFormat", "name", "needSelectPlan", "portalDomain", "portalDomainPending", "portalDomainToken", "portalDomainVerifiedAt", "pricingPlan", "referralParam", "settings", "shopifyPlan", "timezone", "translationsVersion", "uninstalledAt", "updatedAt", "url", "webPixelId", "webPixelUrl" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_domain_key" ON "Shop"("domain");
CREATE UNIQUE INDEX "Shop_portalDomain_key" ON "Shop"("portalDomain");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

