-- AlterEnum
ALTER TYPE "PaymentProvider" ADD VALUE 'stripe';

-- AlterTable
ALTER TABLE "SchoolBilling" ADD COLUMN     "stripeSecretKey" TEXT,
ADD COLUMN     "stripeSecretKeyHint" TEXT,
ADD COLUMN     "stripeWebhookSecret" TEXT,
ADD COLUMN     "stripeWebhookSecretHint" TEXT;

-- CreateTable
CREATE TABLE "StripeEvent" (
    "schoolId" UUID NOT NULL,
    "eventId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StripeEvent_pkey" PRIMARY KEY ("schoolId","eventId")
);

-- AddForeignKey
ALTER TABLE "StripeEvent" ADD CONSTRAINT "StripeEvent_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;

