-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "endingSoonMailedFor" TIMESTAMPTZ(3);

