-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "error" TEXT;

