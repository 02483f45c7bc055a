-- changeSubscriptionPlan (docs/decisions.md, "Billing", "Plan changes").
-- AlterEnum: the prorated charge of an upgrade.
ALTER TYPE "BillingReason" ADD VALUE 'subscription_update';

-- AlterTable: a downgrade scheduled for the period end.
ALTER TABLE "Subscription" ADD COLUMN     "scheduledPlanId" UUID;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_scheduledPlanId_fkey" FOREIGN KEY ("scheduledPlanId") REFERENCES "MembershipPlan"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AlterTable: the plan a payment charged for (a proration's new plan, a renewal's plan).
ALTER TABLE "Payment" ADD COLUMN     "planId" UUID;
