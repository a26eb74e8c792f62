-- AlterTable
ALTER TABLE "Shop" ADD COLUMN "webPixelId" TEXT;
ALTER TABLE "Shop" ADD COLUMN "webPixelUrl" TEXT;

