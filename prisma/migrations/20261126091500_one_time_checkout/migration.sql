-- AlterEnum
ALTER TYPE "BillingReason" ADD VALUE 'one_time';

-- AlterTable
ALTER TABLE "CheckoutSession" ADD COLUMN     "courseId" UUID,
ADD COLUMN     "downloadId" UUID,
ADD COLUMN     "paymentId" UUID,
ALTER COLUMN "planId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "courseId" UUID,
ADD COLUMN     "description" TEXT,
ADD COLUMN     "downloadId" UUID,
ADD COLUMN     "userId" UUID,
ALTER COLUMN "subscriptionId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "DownloadAccess" (
    "id" UUID NOT NULL,
    "schoolId" UUID NOT NULL,
    "downloadId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "paymentId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DownloadAccess_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DownloadAccess_userId_idx" ON "DownloadAccess"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "DownloadAccess_downloadId_userId_key" ON "DownloadAccess"("downloadId", "userId");

-- CreateIndex
CREATE INDEX "Payment_userId_idx" ON "Payment"("userId");

-- AddForeignKey
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DownloadAccess" ADD CONSTRAINT "DownloadAccess_schoolId_fkey" FOREIGN KEY ("schoolId") REFERENCES "School"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DownloadAccess" ADD CONSTRAINT "DownloadAccess_downloadId_fkey" FOREIGN KEY ("downloadId") REFERENCES "DigitalDownload"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DownloadAccess" ADD CONSTRAINT "DownloadAccess_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- (billingReason compared as text: a value added above cannot be used in the same transaction.)
-- Checks that Prisma's schema language cannot express (Prisma ignores CHECK constraints when diffing).
-- A checkout buys exactly one item.
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_one_item" CHECK (num_nonnulls("planId", "courseId", "downloadId") = 1);
-- A payment without a subscription is a one-time purchase of exactly one course or download by a member.
ALTER TABLE "Payment" ADD CONSTRAINT "Payment_subscription_or_one_time" CHECK (
  CASE WHEN "subscriptionId" IS NOT NULL THEN "billingReason"::text IS DISTINCT FROM 'one_time' AND "userId" IS NULL AND "courseId" IS NULL AND "downloadId" IS NULL
  ELSE "billingReason"::text = 'one_time' AND "userId" IS NOT NULL AND num_nonnulls("courseId", "downloadId") = 1 END
);
