-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "translationsVersion" INTEGER NOT NULL DEFAULT 0;

