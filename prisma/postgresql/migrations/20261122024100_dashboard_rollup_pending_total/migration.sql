-- AlterTable
ALTER TABLE "DashboardRollupState" ADD COLUMN     "pendingSales" INTEGER NOT NULL DEFAULT 0;

