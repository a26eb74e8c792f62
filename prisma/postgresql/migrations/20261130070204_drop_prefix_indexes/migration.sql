-- DropIndex
DROP INDEX "Commission_shopId_status_idx";

-- DropIndex
DROP INDEX "Order_affiliateId_idx";

-- DropIndex
DROP INDEX "Order_shopId_status_idx";

