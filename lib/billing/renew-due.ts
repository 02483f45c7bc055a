import { db } from "../db/client";
import { vacuumEmbedded } from "../db/embedded-vacuum";
import { recordEvents } from "../db/outbox";
import { TX_OPTIONS } from "../db/write-transaction";
import { presentSubscription } from "../membership/presenter";
import { subscriptionInclude } from "../membership/record-types";
import { collectSubscriptions, RENEWALS_ACTOR, type CollectOutcome } from "./collect-subscription";
import { recordAudits } from "../db/audit";
import { enqueueEndingSoonMails } from "./ending-soon";
import { CHARGE_LEASE_MS, INCOMPLETE_EXPIRY_MS, RENEWAL_BATCH } from "./schedule";

export interface RenewalRunResult {
  /** Subscriptions whose step ran, by outcome. */
  outcomes: Record<CollectOutcome, number>;
  /** Incomplete subscriptions that ended unpaid (incomplete_expired). */
  incompleteExpired: number;
  /** Scheduled cancellations near their end whose "ending soon" mail this run wrote. */
  endingSoonMailed: number;
}

/**
 * Claims up to `limit` subscriptions with billing work due at `now`, as the webhook worker claims
 * deliveries: rows locked FOR UPDATE SKIP LOCKED (concurrent workers never pick the same row) get a
 * lease (chargeLockedUntil), and no other worker claims them until it passes. Due: a live
 * subscription, not canceling, whose nextChargeDate has come (a recurring renewal or retry, or an
 * incomplete one's first charge); or any subscription with a pending payment (an outcome to
 * reconcile; up to `limit` more of those). schoolId: only that school's (its test clock); without
 * it, every school without a test clock (a school with one moves only with its clock).
 * The two kinds are found from their indexes (nextChargeDate in date order; pending payments by
 * state), never by a scan of every subscription, so a claim costs the same however many are due.
 * The plan and the test clock are tested per row (EXISTS), not joined: with the joins the planner
 * judged that a handful of rows qualify, so it read every due subscription and sorted them for
 * each batch instead of stopping at the index's first `limit` (0.7 s a claim at 100,000 due:
 * docs/benchmarks.md, "Renewals"; tests/integration/billing/renewal-claim-plan.test.ts).
 */
export async function claimDueSubscriptions(options: {
  now: Date;
  limit: number;
  schoolId?: string;
  /** Subscriptions this run already took a step with that are still due (they wait for the next run). */
  exclude?: readonly string[];
  /**
   * Whether to look for pending payments too (default true). A run stops looking once a claim found
   * fewer than `limit`: the ones its own batches leave pending hold its lease, so later claims of the
   * run could find none, and each look reads the state index's entries of every payment moved from
   * pending since the last vacuum (a bitmap scan does not prune them): 0.4 s a claim after 50,000
   * renewals, a cost that grew with the run.
   */
  unsettled?: boolean;
}): Promise<{ ids: string[]; lease: Date; unsettled: number }> {
  const { now, limit } = options;
  const exclude = [...(options.exclude ?? [])];
  const school = options.schoolId ?? null;
  const withUnsettled = options.unsettled ?? true;
  const lease = new Date(now.getTime() + CHARGE_LEASE_MS);
  const rows = await db().$queryRaw<{ id: string; unsettled: boolean }[]>`
    WITH due AS (
      SELECT c."id" FROM "Subscription" c
       WHERE c."nextChargeDate" <= ${now}
         AND c."state" IN ('active', 'trialing', 'past_due', 'incomplete')
         AND c."cancelAt" IS NULL
         AND c."pausedAt" IS NULL
         AND (c."state" = 'incomplete' OR EXISTS (SELECT 1 FROM "MembershipPlan" p WHERE p."id" = c."planId" AND p."planType" = 'recurring'))
         AND (c."chargeLockedUntil" IS NULL OR c."chargeLockedUntil" <= ${now})
         AND NOT (c."id"::text = ANY(${exclude}::text[]))
         AND (CASE WHEN ${school}::uuid IS NULL
                   THEN NOT EXISTS (SELECT 1 FROM "SchoolBilling" b WHERE b."schoolId" = c."schoolId" AND b."testClockAt" IS NOT NULL)
                   ELSE c."schoolId" = ${school}::uuid END)
       ORDER BY c."nextChargeDate"
       LIMIT ${limit}
       FOR UPDATE OF c SKIP LOCKED
    ), unsettled AS (
      SELECT c."id" FROM "Subscription" c
        LEFT JOIN "SchoolBilling" b ON b."schoolId" = c."schoolId"
       WHERE ${withUnsettled}::boolean
         AND c."id" IN (SELECT x."subscriptionId" FROM "Payment" x WHERE x."state" = 'pending')
         AND (c."chargeLockedUntil" IS NULL OR c."chargeLockedUntil" <= ${now})
         AND NOT (c."id"::text = ANY(${exclude}::text[]))
         AND (CASE WHEN ${school}::uuid IS NULL THEN b."testClockAt" IS NULL ELSE c."schoolId" = ${school}::uuid END)
       LIMIT ${limit}
       FOR UPDATE OF c SKIP LOCKED
    )
    UPDATE "Subscription" s SET "chargeLockedUntil" = ${lease}
     WHERE s."id" IN (SELECT "id" FROM due UNION SELECT "id" FROM unsettled)
    RETURNING s."id"::text AS "id", s."id" IN (SELECT "id" FROM unsettled) AS "unsettled"`;
  return { ids: rows.map((r) => r.id), lease, unsettled: rows.filter((r) => r.unsettled).length };
}

/**
 * One renewal run (the cron route, the in-process worker, a test clock): claims due subscriptions a
 * batch at a time and takes each one step (collect-subscription.ts: a batch in a fixed number of
 * statements plus a provider call per charge), until none is due at `now`; then ends incomplete
 * subscriptions unpaid for 23 hours, and mails the members whose scheduled cancellation is a few
 * days away (ending-soon.ts). Each subscription takes at most one step per run (a renewed one is due
 * again only at its next period end; several missed periods are caught up by the runs that follow,
 * one period each). Safe to run on several instances at once.
 */
export async function renewDueSubscriptions(options: { now: Date; schoolId?: string; batchSize?: number }): Promise<RenewalRunResult> {
  const { now, schoolId } = options;
  const outcomes: Record<CollectOutcome, number> = { renewed_without_charge: 0, succeeded: 0, failed: 0, unknown: 0, skipped: 0 };
  // Only the subscriptions still due after their step (a period caught up, a skipped one): the
  // others are out of the claim's reach at `now` by themselves.
  const stillDue = new Set<string>();
  const limit = options.batchSize ?? RENEWAL_BATCH;
  // Pending payments from before the run (a crash, an outage) are all found by its first claims.
  let unsettled = true;
  for (;;) {
    const claim = await claimDueSubscriptions({ now, limit, schoolId, exclude: [...stillDue], unsettled });
    const { ids, lease } = claim;
    if (claim.unsettled < limit) unsettled = false;
    if (!ids.length) break;
    for (const step of await collectSubscriptions({ subscriptionIds: ids, lease, now })) {
      outcomes[step.outcome] += 1;
      if (step.dueAgain) stillDue.add(step.id);
    }
    // A long run on the embedded database gets what autovacuum gives it on Postgres meanwhile: its
    // batches leave two dead versions of each subscription and one of each payment (one statistics
    // read a batch; a vacuum when a table passes autovacuum's thresholds).
    await vacuumEmbedded();
  }
  const incompleteExpired = await expireIncomplete({ now, schoolId });
  const endingSoonMailed = await enqueueEndingSoonMails({ now, schoolId });
  return { outcomes, incompleteExpired, endingSoonMailed };
}

/** Incomplete subscriptions (first charge refused) unpaid 23 hours after they were created end: incomplete_expired. */
async function expireIncomplete(options: { now: Date; schoolId?: string }): Promise<number> {
  const { now } = options;
  const school = options.schoolId ?? null;
  const cutoff = new Date(now.getTime() - INCOMPLETE_EXPIRY_MS);
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Subscription" s SET "state" = 'incomplete_expired', "nextChargeDate" = NULL, "endAt" = ${now}, "updatedAt" = ${now}
        FROM "Subscription" c LEFT JOIN "SchoolBilling" b ON b."schoolId" = c."schoolId"
       WHERE s."id" = c."id" AND c."state" = 'incomplete' AND c."collectionMethod" = 'charge_automatically'
         AND c."createdAt" <= ${cutoff}
         AND (c."chargeLockedUntil" IS NULL OR c."chargeLockedUntil" <= ${now})
         AND NOT EXISTS (SELECT 1 FROM "Payment" x WHERE x."subscriptionId" = c."id" AND x."state" = 'pending')
         AND (CASE WHEN ${school}::uuid IS NULL THEN b."testClockAt" IS NULL ELSE c."schoolId" = ${school}::uuid END)
      RETURNING s."id"::text AS "id"`;
    if (!rows.length) return 0;
    const records = await tx.subscription.findMany({ where: { id: { in: rows.map((r) => r.id) } }, include: subscriptionInclude });
    await recordEvents(tx, {
      events: records.map((r) => ({ schoolId: r.schoolId, type: "subscription.incomplete_expired" as const, subjectId: r.id, data: presentSubscription(r) })),
      now,
    });
    const entries = records.map((r) => ({
      schoolId: r.schoolId,
      action: "subscription.expire_incomplete",
      target: { type: "subscription", id: r.id },
      summary: { state: { from: "incomplete", to: r.state } },
    }));
    await recordAudits(tx, { actor: RENEWALS_ACTOR, entries, now });
    return rows.length;
  }, TX_OPTIONS);
}
