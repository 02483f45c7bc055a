-- A proration pays part of a period from the change on, so the per-period keys leave it out (its
-- idempotencyKey is its key). Its own migration: a new enum value cannot be used in the transaction
-- that adds it (20261126050000).
DROP INDEX "Payment_period_attempt_key";
CREATE UNIQUE INDEX "Payment_period_attempt_key" ON "Payment"("subscriptionId", "periodStart", "attempt") WHERE "billingReason" IS DISTINCT FROM 'subscription_update';

DROP INDEX "Payment_period_collected_key";
CREATE UNIQUE INDEX "Payment_period_collected_key" ON "Payment"("subscriptionId", "periodStart") WHERE state IN ('pending', 'succeeded', 'refunded') AND "billingReason" IS DISTINCT FROM 'subscription_update';
