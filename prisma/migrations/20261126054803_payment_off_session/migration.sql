-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "offSession" BOOLEAN NOT NULL DEFAULT false;


-- Every renewal and retry recorded so far was charged without the member.
UPDATE "Payment" SET "offSession" = true WHERE "billingReason" = 'subscription_cycle';
