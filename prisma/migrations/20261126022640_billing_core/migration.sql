-- CreateEnum
CREATE TYPE "CollectionMethod" AS ENUM ('external', 'charge_automatically');

-- CreateEnum
CREATE TYPE "PaymentProvider" AS ENUM ('external', 'test');

-- CreateEnum
CREATE TYPE "BillingReason" AS ENUM ('subscription_create', 'subscription_cycle');

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "chargeLockedUntil" TIMESTAMPTZ(3),
ADD COLUMN     "collectionMethod" "CollectionMethod" NOT NULL DEFAULT 'external',
ADD COLUMN     "paymentMethodId" TEXT;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "billingReason" "BillingReason",
ADD COLUMN     "failedAt" TIMESTAMPTZ(3),
ADD COLUMN     "failureCode" TEXT,
ADD COLUMN     "failureMessage" TEXT,
ADD COLUMN     "idempotencyKey" TEXT,
ADD COLUMN     "paymentMethodId" TEXT,
ADD COLUMN     "periodEnd" TIMESTAMPTZ(3),
ADD COLUMN     "periodStart" TIMESTAMPTZ(3),
ADD COLUMN     "provider" "PaymentProvider" NOT NULL DEFAULT 'external',
ADD COLUMN     "providerPaymentId" TEXT,
ADD COLUMN     "refundedAmount" DECIMAL(12,2) NOT NULL DEFAULT 0,
ADD COLUMN     "refundedAt" TIMESTAMPTZ(3),
ADD COLUMN     "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "SchoolBilling" (
    "schoolId" UUID NOT NULL,
    "livemode" BOOLEAN NOT NULL DEFAULT false,
    "testClockAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "SchoolBilling_pkey" PRIMARY KEY ("schoolId")
);

-- CreateTable
CREATE TABLE "TestProviderCharge" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "paymentMethodId" TEXT NOT NULL,
    "amount" DECIMAL(12,2) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "status" TEXT NOT NULL,
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TestProviderCharge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TestProviderCharge_idempotencyKey_key" ON "TestProviderCharge"("idempotencyKey");

-- CreateIndex
CREATE INDEX "Subscription_nextChargeDate_idx" ON "Subscription"("nextChargeDate");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_idempotencyKey_key" ON "Payment"("idempotencyKey");

-- CreateIndex
CREATE INDEX "Payment_state_createdAt_idx" ON "Payment"("state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_period_attempt_key" ON "Payment"("subscriptionId", "periodStart", "attempt");

-- CreateIndex
CREATE UNIQUE INDEX "Payment_period_collected_key" ON "Payment"("subscriptionId", "periodStart") WHERE state IN ('pending', 'succeeded', 'refunded');

-- AddForeignKey
ALTER TABLE "SchoolBilling" ADD CONSTRAINT "SchoolBilling_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;

