-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "webPixelId" TEXT,
ADD COLUMN     "webPixelUrl" TEXT;

