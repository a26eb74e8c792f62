-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "portalDomainPending" TEXT;
ALTER TABLE "Shop" ADD COLUMN "portalDomainToken" TEXT;
ALTER TABLE "Shop" ADD COLUMN "portalDomainVerifiedAt" DATETIME;


-- Domains set before verification existed were never proven: they wait for
-- their owner's TXT record like any new one (the token is made when the
-- merchant next opens Portals).
UPDATE "Shop" SET "portalDomainPending" = "portalDomain", "portalDomain" = NULL WHERE "portalDomain" IS NOT NULL;
