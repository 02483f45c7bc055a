import { db } from "../db/client";
import type { Payment } from "../db/generated/client";

/**
 * Payments of several subscriptions in one statement, each list oldest first (the
 * Subscription.payments field, batched per request so a page costs one query, not one per row).
 */
export async function listPaymentsOfSubscriptions(options: { subscriptionIds: readonly string[] }): Promise<Map<string, Payment[]>> {
  const bySubscription = new Map<string, Payment[]>(options.subscriptionIds.map((id) => [id, []]));
  if (options.subscriptionIds.length === 0) return bySubscription;
  const rows = await db().payment.findMany({
    where: { subscriptionId: { in: [...new Set(options.subscriptionIds)] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  for (const p of rows) if (p.subscriptionId) bySubscription.get(p.subscriptionId)?.push(p);
  return bySubscription;
}
