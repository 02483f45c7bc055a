import { recordAudit, type AuditActor } from "../db/audit";
import { db } from "../db/client";
import { settleDueSubscriptions } from "../membership/settle";
import { renewDueSubscriptions, type RenewalRunResult } from "./renew-due";
import { INCOMPLETE_EXPIRY_MS } from "./schedule";

export const NOT_TEST_MODE = "The test clock exists only for schools in test mode";
export const CLOCK_MOVES_FORWARD = "A test clock only moves forward: pass a time after the clock's";

/** Beyond this many steps an advance stops (a bound, not a limit anyone reaches: ~80 years of daily renewals). */
const MAX_STEPS = 30_000;

export interface AdvanceResult {
  /** The clock's time before and after. */
  from: Date;
  to: Date;
  /** How many times the school's due work was run, each at the time it fell due. */
  steps: number;
  succeeded: number;
  failed: number;
  renewedWithoutCharge: number;
  unknown: number;
  incompleteExpired: number;
  canceled: number;
  expired: number;
}

/**
 * Moves a test-mode school's test clock (Stripe's test clocks) forward to `to`, running everything
 * that falls due on the way in time order: renewals, first charges, retries, expiries and scheduled
 * cancellations each run at the moment they are due (the payments' paidAt/failedAt say so), so a
 * year's advance of a monthly plan makes twelve renewals. The school's other work (and every other
 * school) keeps real time; once a school has a test clock, the real-time renewal run leaves it out.
 * The first advance starts the clock at `now` (real time). The move is audited
 * (school.advance_test_clock, by `actor`) with the clock's final step; the renewals and time rules
 * it ran are the system's own rows.
 */
export async function advanceTestClock(options: { schoolId: string; to: Date; now: Date; actor: AuditActor }): Promise<{ error: string } | AdvanceResult> {
  const { schoolId, to } = options;
  const billing = await db().schoolBilling.findUnique({ where: { schoolId } });
  if (billing?.livemode) return { error: NOT_TEST_MODE };
  const from = billing?.testClockAt ?? options.now;
  if (to <= from) return { error: CLOCK_MOVES_FORWARD };
  await db().schoolBilling.upsert({ where: { schoolId }, create: { schoolId, testClockAt: from }, update: { testClockAt: from } });
  const result: AdvanceResult = { from, to, steps: 0, succeeded: 0, failed: 0, renewedWithoutCharge: 0, unknown: 0, incompleteExpired: 0, canceled: 0, expired: 0 };
  let clock = from;
  // After a step that changed nothing, only work due later than it counts (no spinning on the stuck).
  let stalledAt: Date | null = null;
  for (;;) {
    const due = await nextDueTime({ schoolId, after: clock, upTo: to, strictlyAfter: stalledAt });
    if (!due || result.steps >= MAX_STEPS) break;
    clock = due > clock ? due : clock;
    result.steps += 1;
    const settled = await settleDueSubscriptions({ schoolId, now: clock });
    const renewed: RenewalRunResult = await renewDueSubscriptions({ schoolId, now: clock });
    result.canceled += settled.canceled;
    result.expired += settled.expired;
    result.succeeded += renewed.outcomes.succeeded;
    result.failed += renewed.outcomes.failed;
    result.renewedWithoutCharge += renewed.outcomes.renewed_without_charge;
    result.unknown += renewed.outcomes.unknown;
    result.incompleteExpired += renewed.incompleteExpired;
    await db().schoolBilling.update({ where: { schoolId }, data: { testClockAt: clock } });
    const moved = settled.canceled + settled.expired + renewed.incompleteExpired + renewed.outcomes.succeeded + renewed.outcomes.failed + renewed.outcomes.renewed_without_charge;
    stalledAt = moved === 0 ? clock : null;
  }
  await db().$transaction(async (tx) => {
    await tx.schoolBilling.update({ where: { schoolId }, data: { testClockAt: to } });
    const { steps, succeeded, failed, unknown, renewedWithoutCharge, incompleteExpired, canceled, expired } = result;
    const summary = { testClockAt: { from, to }, steps, succeeded, failed, unknown, renewedWithoutCharge, incompleteExpired, canceled, expired };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId, action: "school.advance_test_clock", target: { type: "school", id: schoolId }, summary } });
  });
  return result;
}

/** The earliest time in (after, upTo], or at/before `after` when overdue, at which the school has due billing or settle work. */
async function nextDueTime(options: { schoolId: string; after: Date; upTo: Date; strictlyAfter: Date | null }): Promise<Date | null> {
  const { schoolId, after, upTo, strictlyAfter } = options;
  const [row] = await db().$queryRaw<{ t: Date | null }[]>`
    SELECT min(t) AS "t" FROM (
      SELECT GREATEST(c."nextChargeDate", COALESCE(c."chargeLockedUntil", c."nextChargeDate")) AS t
        FROM "Subscription" c JOIN "MembershipPlan" p ON p."id" = c."planId"
       WHERE c."schoolId" = ${schoolId}::uuid AND c."state" IN ('active', 'trialing', 'past_due', 'incomplete')
         AND c."cancelAt" IS NULL AND c."nextChargeDate" IS NOT NULL
         AND (c."state" = 'incomplete' OR p."planType" = 'recurring')
      UNION ALL
      SELECT COALESCE(c."chargeLockedUntil", ${after}) FROM "Subscription" c
       WHERE c."schoolId" = ${schoolId}::uuid
         AND EXISTS (SELECT 1 FROM "Payment" x WHERE x."subscriptionId" = c."id" AND x."state" = 'pending')
      UNION ALL
      SELECT c."createdAt" + ${`${INCOMPLETE_EXPIRY_MS / 1000} seconds`}::interval FROM "Subscription" c
       WHERE c."schoolId" = ${schoolId}::uuid AND c."state" = 'incomplete' AND c."collectionMethod" = 'charge_automatically'
      UNION ALL
      SELECT c."cancelAt" FROM "Subscription" c WHERE c."schoolId" = ${schoolId}::uuid AND c."cancelAt" IS NOT NULL AND c."state" <> 'canceled'
      UNION ALL
      SELECT c."endAt" FROM "Subscription" c JOIN "MembershipPlan" p ON p."id" = c."planId"
       WHERE c."schoolId" = ${schoolId}::uuid AND p."planType" IN ('fixed_date', 'specific_length')
         AND c."endAt" IS NOT NULL AND c."state" IN ('active', 'trialing', 'past_due', 'incomplete')
         AND c."pausedAt" IS NULL
    ) due WHERE t <= ${upTo} AND (${strictlyAfter}::timestamptz IS NULL OR t > ${strictlyAfter}::timestamptz)`;
  return row?.t ?? null;
}
