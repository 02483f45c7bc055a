import { db } from "../db/client";
import { rawQuery } from "../db/raw";
import type { Prisma } from "../db/generated/client";
import { recordEvents, type WebhookEventType } from "../db/outbox";
import { presentSubscription } from "./presenter";
import { subscriptionInclude } from "./record-types";
import { TX_OPTIONS } from "../db/write-transaction";
import { enqueueBillingMails } from "../mail/billing-mails";
import { recordAudits, systemActor } from "../db/audit";

type Tx = Prisma.TransactionClient;

/**
 * Time, not the caller, makes these changes: whichever request or job runs the rules (a read, a
 * write's transaction, the cron), their audit rows name the system's time rules.
 */
export const TIME_RULES_ACTOR = systemActor("time rules");

export interface SettleResult {
  /** Scheduled cancellations that took effect. */
  canceled: number;
  /** fixed_date / specific_length subscriptions whose end passed. */
  expired: number;
  /** The subscriptions each transition changed (ids), in the order they were settled. */
  canceledIds: string[];
  expiredIds: string[];
}

/**
 * Applies the transitions that time causes: a scheduled cancellation (cancelAt) that has passed
 * becomes `canceled` (canceledAt = endAt = cancelAt), and a live fixed_date / specific_length
 * subscription whose endAt has passed becomes `expired`. Called lazily before every Admin API read
 * or write of a school's subscriptions, and for all schools by the cron route; both are idempotent,
 * so a late or missed cron run never shows a stale state. Each changed row is reported (ids) and
 * gets its subscription.canceled / subscription.expired event in the same transaction.
 */
export async function settleDueSubscriptions(options: {
  now: Date;
  schoolId?: string;
  /** Only this user's and plan's subscriptions (what createSubscription's uniqueness depends on). */
  userId?: string;
  planId?: string;
  tx?: Tx;
}): Promise<SettleResult> {
  // Almost always nothing is due: one read answers that, without a transaction or an UPDATE.
  if (!(await anythingDue(options.tx, options))) return { canceled: 0, expired: 0, canceledIds: [], expiredIds: [] };
  if (!options.tx) return db().$transaction((tx) => settle(tx, options), TX_OPTIONS);
  return settle(options.tx, options);
}

// Named (prepared once per connection) outside a transaction, as it runs before every Admin API read
// and write of subscriptions: parsing and planning it were most of its cost (2.1 ms of CPU per call
// on the embedded database, 0.4 named; docs/benchmarks.md, "The due check, prepared"). Its generic
// plan is checked on the large dataset (tests/pg/hot-plans.test.ts).
const ANYTHING_DUE = `
SELECT EXISTS (
         SELECT 1 FROM "Subscription"
          WHERE "cancelAt" IS NOT NULL AND "cancelAt" <= $1
            AND "state" <> 'canceled'
            AND ($2::uuid IS NULL OR "schoolId" = $2::uuid)
            AND ($3::uuid IS NULL OR "userId" = $3::uuid)
            AND ($4::uuid IS NULL OR "planId" = $4::uuid))
    OR (SELECT s."endAt" FROM "Subscription" s JOIN "MembershipPlan" p ON p."id" = s."planId"
         WHERE p."planType" IN ('fixed_date', 'specific_length')
           AND s."endAt" IS NOT NULL
           AND s."state" IN ('active', 'trialing', 'past_due', 'incomplete')
           AND s."pausedAt" IS NULL
           AND ($2::uuid IS NULL OR s."schoolId" = $2::uuid)
           AND ($3::uuid IS NULL OR s."userId" = $3::uuid)
           AND ($4::uuid IS NULL OR s."planId" = $4::uuid)
         ORDER BY s."endAt" LIMIT 1) <= $1 AS "due"`;

/**
 * Whether settle() would change a row, with its predicates (the same indexes: cancelAt, endAt). A
 * row that becomes due after this read is settled by the next call; `now` is the caller's, so what
 * this call owes is decided by rows as of the read, as it would be inside the transaction.
 * Expiry asks for the earliest live end rather than whether one has passed: that walks the partial
 * index on live endAt from its first entry, where `EXISTS (… endAt <= now)` made the planner scan
 * the whole table once history piled up (docs/benchmarks.md, "Flat cost as data grows").
 */
async function anythingDue(q: Tx | undefined, options: { now: Date; schoolId?: string; userId?: string; planId?: string }): Promise<boolean> {
  const params = [options.now, options.schoolId ?? null, options.userId ?? null, options.planId ?? null];
  const [row] = q
    ? await q.$queryRawUnsafe<{ due: boolean }[]>(ANYTHING_DUE, ...params)
    : await rawQuery<{ due: boolean }>(ANYTHING_DUE, params, { name: "anything-due", readOnly: true });
  return row?.due === true;
}

async function settle(tx: Tx, options: { now: Date; schoolId?: string; userId?: string; planId?: string }): Promise<SettleResult> {
  const { now } = options;
  const school = options.schoolId ?? null;
  const user = options.userId ?? null;
  const plan = options.planId ?? null;
  const canceled = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "Subscription"
       SET "state" = 'canceled', "canceledAt" = "cancelAt", "endAt" = "cancelAt",
           "cancelAt" = NULL, "nextChargeDate" = NULL, "updatedAt" = ${now}
     WHERE "cancelAt" IS NOT NULL AND "cancelAt" <= ${now}
       AND "state" <> 'canceled'
       AND (${school}::uuid IS NULL OR "schoolId" = ${school}::uuid)
       AND (${user}::uuid IS NULL OR "userId" = ${user}::uuid)
       AND (${plan}::uuid IS NULL OR "planId" = ${plan}::uuid)
    RETURNING "id"::text AS "id"`;
  const expired = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "Subscription" s
       SET "state" = 'expired', "nextChargeDate" = NULL, "updatedAt" = ${now}
      FROM "MembershipPlan" p
     WHERE p."id" = s."planId" AND p."planType" IN ('fixed_date', 'specific_length')
       AND s."endAt" IS NOT NULL AND s."endAt" <= ${now}
       AND s."state" IN ('active', 'trialing', 'past_due', 'incomplete')
       AND s."pausedAt" IS NULL
       AND (${school}::uuid IS NULL OR s."schoolId" = ${school}::uuid)
       AND (${user}::uuid IS NULL OR s."userId" = ${user}::uuid)
       AND (${plan}::uuid IS NULL OR s."planId" = ${plan}::uuid)
    RETURNING s."id"::text AS "id"`;
  const canceledIds = canceled.map((r) => r.id);
  const expiredIds = expired.map((r) => r.id);
  if (canceledIds.length || expiredIds.length) {
    const type = new Map<string, WebhookEventType>([
      ...canceledIds.map((id) => [id, "subscription.canceled"] as const),
      ...expiredIds.map((id) => [id, "subscription.expired"] as const),
    ]);
    const records = await tx.subscription.findMany({ where: { id: { in: [...type.keys()] } }, include: subscriptionInclude });
    const byId = new Map(records.map((r) => [r.id, r]));
    const events = [...type].map(([id, t]) => {
      const r = byId.get(id)!;
      return { schoolId: r.schoolId, type: t, subjectId: id, data: presentSubscription(r) };
    });
    await recordEvents(tx, { events, now });
    await enqueueBillingMails(tx, { events, now });
    const entries = [...type].map(([id, t]) => {
      const r = byId.get(id)!;
      const canceledNow = t === "subscription.canceled";
      return {
        schoolId: r.schoolId,
        action: canceledNow ? "subscription.scheduled_cancellation" : "subscription.expire",
        target: { type: "subscription", id },
        summary: { state: r.state, endAt: r.endAt },
      };
    });
    await recordAudits(tx, { actor: TIME_RULES_ACTOR, entries, now });
  }
  return { canceled: canceledIds.length, expired: expiredIds.length, canceledIds, expiredIds };
}
