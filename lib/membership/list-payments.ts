import { db } from "../db/client";

/** Payments of one subscription, oldest first (the Subscription.payments field). */
export function listSubscriptionPayments(options: { subscriptionId: string }) {
  return db().payment.findMany({ where: { subscriptionId: options.subscriptionId }, orderBy: { createdAt: "asc" } });
}
