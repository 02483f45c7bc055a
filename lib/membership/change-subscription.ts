import type { Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, type Payload, writeTransaction } from "../db/write-transaction";
import { settleDueSubscriptions } from "./settle";

export const SUBSCRIPTION_NOT_FOUND = "Subscription not found";

/**
 * Runs `change` in one transaction on one of the school's subscriptions. Due time rules are applied
 * first, then the row is locked FOR UPDATE so a concurrent update or cancel cannot slip between the
 * caller's checks and its write. Unknown ids, and other schools' ids, are "Subscription not found".
 */
export async function changeSubscription(
  options: { schoolId: string; id: string; now: Date; dryRun?: boolean },
  change: (tx: Prisma.TransactionClient, sub: SubscriptionRecord) => Promise<Payload<SubscriptionRecord>>,
): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, id, now, dryRun } = options;
  if (!isUuid(id)) return failure(SUBSCRIPTION_NOT_FOUND);
  return writeTransaction({ dryRun }, async (tx) => {
    await settleDueSubscriptions({ tx, schoolId, now });
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Subscription" WHERE "id" = ${id}::uuid AND "schoolId" = ${schoolId}::uuid FOR UPDATE`;
    if (!locked.length) return failure<SubscriptionRecord>(SUBSCRIPTION_NOT_FOUND);
    const sub = await tx.subscription.findUniqueOrThrow({ where: { id }, include: subscriptionInclude });
    return change(tx, sub);
  });
}
