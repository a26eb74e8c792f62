-- AlterTable
ALTER TABLE "User" ADD COLUMN     "mailKinds" TEXT NOT NULL DEFAULT '[]';

