import type { Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { failure, type Payload, writeTransaction } from "../db/write-transaction";
import { changedFields, recordAudit, type AuditActor } from "../db/audit";
import { settleDueSubscriptions } from "./settle";

export const SUBSCRIPTION_NOT_FOUND = "Subscription not found";

/** The subscription fields an audit row compares before and after a change (everything a verb may move). */
export const AUDITED_SUBSCRIPTION_FIELDS = [
  "state",
  "planId",
  "scheduledPlanId",
  "currentPeriodStart",
  "currentPeriodEnd",
  "endAt",
  "nextChargeDate",
  "cancelAt",
  "canceledAt",
  "cancelType",
  "cancelReason",
  "pausedAt",
  "collectionMethod",
  "paymentMethodId",
] as const satisfies readonly (keyof SubscriptionRecord)[];

/**
 * Runs `change` in one transaction on one of the school's subscriptions. Due time rules are applied
 * first, then the row is locked FOR UPDATE so a concurrent update or cancel cannot slip between the
 * caller's checks and its write. Unknown ids, and other schools' ids, are "Subscription not found".
 * When `change` succeeds and moved any audited field, the audit row (`action` by `actor`, the fields
 * before and after) is written in the same transaction: every verb built on this gets its audit row
 * here, and a refusal or a change that changed nothing (a double submit) writes none.
 */
export async function changeSubscription(
  options: { schoolId: string; id: string; now: Date; dryRun?: boolean; actor: AuditActor; action: string },
  change: (tx: Prisma.TransactionClient, sub: SubscriptionRecord) => Promise<Payload<SubscriptionRecord>>,
): Promise<Payload<SubscriptionRecord>> {
  const { schoolId, id, now, dryRun, actor, action } = options;
  if (!isUuid(id)) return failure(SUBSCRIPTION_NOT_FOUND);
  return writeTransaction({ dryRun }, async (tx) => {
    await settleDueSubscriptions({ tx, schoolId, now });
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Subscription" WHERE "id" = ${id}::uuid AND "schoolId" = ${schoolId}::uuid FOR UPDATE`;
    if (!locked.length) return failure<SubscriptionRecord>(SUBSCRIPTION_NOT_FOUND);
    const sub = await tx.subscription.findUniqueOrThrow({ where: { id }, include: subscriptionInclude });
    const result = await change(tx, sub);
    if (result.record) {
      const summary = changedFields(sub, result.record, AUDITED_SUBSCRIPTION_FIELDS);
      if (Object.keys(summary).length) {
        await recordAudit(tx, { actor, now, entry: { schoolId, action, target: { type: "subscription", id }, summary } });
      }
    }
    return result;
  });
}
