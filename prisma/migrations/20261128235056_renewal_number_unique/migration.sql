-- Renewals numbered alike by two concurrent batches (the race this index
-- closes) are numbered again so the unique index below can be built: every
-- renewal of a contract that has a duplicate gets 1, 2, ... in the order of
-- its old number (ties by id). Other contracts keep their numbers.
CREATE TEMPORARY TABLE "RenewalRenumber" AS
SELECT o."id" AS "id",
       ROW_NUMBER() OVER (PARTITION BY o."shopId", o."subscriptionContractGid" ORDER BY o."renewalNumber", o."id") AS "n"
FROM "Order" o
WHERE o."subscriptionContractGid" IS NOT NULL AND EXISTS (
  SELECT 1 FROM "Order" a JOIN "Order" b
    ON b."shopId" = a."shopId" AND b."subscriptionContractGid" = a."subscriptionContractGid"
   AND b."renewalNumber" = a."renewalNumber" AND b."id" <> a."id"
  WHERE a."shopId" = o."shopId" AND a."subscriptionContractGid" = o."subscriptionContractGid"
);

UPDATE "Order" SET "renewalNumber" = (SELECT r."n" FROM "RenewalRenumber" r WHERE r."id" = "Order"."id")
WHERE "id" IN (SELECT "id" FROM "RenewalRenumber");

DROP TABLE "RenewalRenumber";

-- DropIndex
DROP INDEX "Order_shopId_subscriptionContractGid_idx";

-- CreateIndex
CREATE UNIQUE INDEX "Order_shopId_subscriptionContractGid_renewalNumber_key" ON "Order"("shopId", "subscriptionContractGid", "renewalNumber");
