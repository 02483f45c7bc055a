import { rawQuery } from "../db/raw";
import type { PaymentWire } from "./presenter";
import { moneyText, unixSeconds } from "./wire-sql";

// One named statement, rows already in presentPayment's shape (lib/membership/wire-sql.ts), plus
// the subscription they are grouped by (subscriptionId is one of the wire's fields).
const PAYMENTS_OF_SUBSCRIPTIONS = `
SELECT "id"::text AS "id", ${moneyText('"amount"')} AS "amount", "currency", "state"::text AS "state",
       ${unixSeconds('"paidAt"')} AS "paidAt", ${unixSeconds('"createdAt"')} AS "createdAt",
       "subscriptionId"::text AS "subscriptionId", ${unixSeconds('"periodStart"')} AS "periodStart",
       ${unixSeconds('"periodEnd"')} AS "periodEnd", "billingReason"::text AS "billingReason",
       "provider"::text AS "provider", "providerPaymentId", "paymentMethodId", "attempt", "failureCode",
       "failureMessage", ${unixSeconds('"failedAt"')} AS "failedAt", ${moneyText('"refundedAmount"')} AS "refundedAmount",
       ${unixSeconds('"refundedAt"')} AS "refundedAt", "planId"::text AS "planId", "userId"::text AS "userId",
       "courseId"::text AS "courseId", "downloadId"::text AS "downloadId", "description"
  FROM "Payment"
 WHERE "subscriptionId" = ANY($1::uuid[])
 ORDER BY "createdAt", "id"`;

/**
 * Payments of several subscriptions as presentPayment shows them, in one statement, each list oldest
 * first (the Subscription.payments field, batched per request so a page costs one query, not one
 * per row).
 */
export async function listPaymentWiresOfSubscriptions(options: { subscriptionIds: readonly string[] }): Promise<Map<string, PaymentWire[]>> {
  const bySubscription = new Map<string, PaymentWire[]>(options.subscriptionIds.map((id) => [id, []]));
  if (options.subscriptionIds.length === 0) return bySubscription;
  const rows = await rawQuery<PaymentWire>(PAYMENTS_OF_SUBSCRIPTIONS, [[...new Set(options.subscriptionIds)]], { name: "admin-payments-of-subscriptions" });
  for (const p of rows) if (p.subscriptionId) bySubscription.get(p.subscriptionId)?.push(p);
  return bySubscription;
}
