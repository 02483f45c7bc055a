-- Flat cost as data grows (docs/benchmarks.md). Written by hand: Prisma 6.19's diff cannot see the
-- partial index's WHERE and reads the change as a rename of "Subscription_endAt_idx".

-- A user's subscriptions (subscriptions(email:), deleting a user) without scanning the table.
CREATE INDEX "Subscription_userId_idx" ON "Subscription"("userId");

-- The settle pass's expiry reads only live ends: index only live rows, earliest end first.
CREATE INDEX "Subscription_live_endAt_idx" ON "Subscription"("endAt") WHERE state IN ('active', 'trialing', 'past_due', 'incomplete');
DROP INDEX "Subscription_endAt_idx";
