import { db } from "../db/client";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { settleDueSubscriptions } from "./settle";

/** One member's subscriptions at one school, oldest first, time rules applied. */
export async function listMemberSubscriptions(options: { schoolId: string; userId: string; now: Date }): Promise<SubscriptionRecord[]> {
  const { schoolId, userId, now } = options;
  await settleDueSubscriptions({ schoolId, userId, now });
  return db().subscription.findMany({ where: { schoolId, userId }, include: subscriptionInclude, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
