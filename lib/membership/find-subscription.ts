import { db } from "../db/client";
import { isUuid } from "../core/ids";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { settleDueSubscriptions } from "./settle";

/** One of the school's subscriptions, time rules applied; null for unknown ids and other schools' ids. */
export async function findSubscription(options: { schoolId: string; id: string; now: Date }): Promise<SubscriptionRecord | null> {
  if (!isUuid(options.id)) return null;
  await settleDueSubscriptions({ schoolId: options.schoolId, now: options.now });
  return db().subscription.findFirst({ where: { id: options.id, schoolId: options.schoolId }, include: subscriptionInclude });
}
