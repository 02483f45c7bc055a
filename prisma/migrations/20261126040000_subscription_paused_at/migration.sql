-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "pausedAt" TIMESTAMPTZ(3);
