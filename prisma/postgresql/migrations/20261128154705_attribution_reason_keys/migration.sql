-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "attributionReasonKey" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "attributionReasonValues" TEXT NOT NULL DEFAULT '{}';

