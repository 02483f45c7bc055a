// The console's overview: a school's members and money this month and over the last 12 months,
// each figure one aggregate statement in the database (never rows loaded into JavaScript).
//
// Definitions (docs/decisions.md, "Staff console", "Overview"):
// - active member: a member with a subscription in a paying or trial state (active, trialing,
//   past_due) that is not paused;
// - new: memberships created in the month;
// - churned: members whose subscription ended in the month (canceled: canceledAt; expired: endAt)
//   and who hold no such active subscription now (one per member, however many ended);
// - monthly recurring revenue: every active or past_due, unpaused subscription of a recurring plan,
//   its plan price normalized to a month (interval and intervalCount: a year is 12 months, a week
//   52/12 of a month, a day 365/12), summed per currency; the history is the same at each month's end;
// - failed payments: payments that failed in the month (failedAt).
import { db } from "../db/client";
import { Prisma } from "../db/generated/client";

export const OVERVIEW_MONTHS = 12;

export interface MonthPoint {
  /** The month's first day (UTC). */
  month: Date;
  value: number;
}

export interface Overview {
  activeMembers: number;
  newThisMonth: number;
  churnedThisMonth: number;
  failedPaymentsThisMonth: number;
  /** Per currency, in the currency's major unit (two decimals). */
  mrr: { currency: string; amount: number }[];
  series: {
    newMembers: MonthPoint[];
    churned: MonthPoint[];
    failedPayments: MonthPoint[];
    /** MRR at each month's end (its current value for this month), in the school's main currency. */
    mrr: MonthPoint[];
    mrrCurrency: string | null;
  };
}

/** The first instant of the UTC month `offset` months from the month of `now`. */
export function monthStart(now: Date, offset = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}

const PAYING = Prisma.sql`('active', 'trialing', 'past_due')`;

// A plan's price as one month of revenue.
const MONTHLY_PRICE = Prisma.sql`(p."price" / GREATEST(p."intervalCount", 1) * CASE p."interval"
  WHEN 'month' THEN 1 WHEN 'year' THEN 1.0 / 12 WHEN 'week' THEN 52.0 / 12 WHEN 'day' THEN 365.0 / 12 ELSE 0 END)`;

function series(rows: { month: Date; value: unknown }[], first: Date): MonthPoint[] {
  const byMonth = new Map(rows.map((r) => [new Date(r.month).getTime(), Number(r.value)]));
  return Array.from({ length: OVERVIEW_MONTHS }, (_, i) => {
    const month = monthStart(first, i);
    return { month, value: byMonth.get(month.getTime()) ?? 0 };
  });
}

export async function schoolOverview(o: { schoolId: string; now: Date }): Promise<Overview> {
  const { schoolId, now } = o;
  const first = monthStart(now, -(OVERVIEW_MONTHS - 1));
  const thisMonth = monthStart(now);
  const client = db();
  const [active, joined, churned, failed, mrr] = await Promise.all([
    client.$queryRaw<{ n: bigint }[]>`
      SELECT count(DISTINCT s."userId") AS n FROM "Subscription" s
       WHERE s."schoolId" = ${schoolId}::uuid AND s."state" IN ${PAYING} AND s."pausedAt" IS NULL`,
    client.$queryRaw<{ month: Date; value: bigint }[]>`
      SELECT date_trunc('month', m."createdAt" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month, count(*) AS value
        FROM "SchoolMembership" m
       WHERE m."schoolId" = ${schoolId}::uuid AND m."createdAt" >= ${first} AND m."createdAt" <= ${now}
       GROUP BY 1`,
    client.$queryRaw<{ month: Date; value: bigint }[]>`
      SELECT month, count(*) AS value FROM (
        SELECT s."userId", max(date_trunc('month', COALESCE(s."canceledAt", s."endAt") AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS month
          FROM "Subscription" s
         WHERE s."schoolId" = ${schoolId}::uuid AND s."state" IN ('canceled', 'expired')
           AND COALESCE(s."canceledAt", s."endAt") >= ${first} AND COALESCE(s."canceledAt", s."endAt") <= ${now}
           AND NOT EXISTS (SELECT 1 FROM "Subscription" l WHERE l."schoolId" = s."schoolId" AND l."userId" = s."userId" AND l."state" IN ${PAYING} AND l."pausedAt" IS NULL)
         GROUP BY s."userId") ended
       GROUP BY month`,
    client.$queryRaw<{ month: Date; value: bigint }[]>`
      SELECT date_trunc('month', pay."failedAt" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month, count(*) AS value
        FROM "Payment" pay
       WHERE pay."schoolId" = ${schoolId}::uuid AND pay."state" = 'failed' AND pay."failedAt" >= ${first} AND pay."failedAt" <= ${now}
       GROUP BY 1`,
    client.$queryRaw<{ currency: string; amount: Prisma.Decimal }[]>`
      SELECT p."currency" AS currency, round(sum(${MONTHLY_PRICE}), 2) AS amount
        FROM "Subscription" s JOIN "MembershipPlan" p ON p."id" = s."planId"
       WHERE s."schoolId" = ${schoolId}::uuid AND p."planType" = 'recurring' AND s."state" IN ('active', 'past_due') AND s."pausedAt" IS NULL
       GROUP BY p."currency" ORDER BY amount DESC, currency`,
  ]);
  const mrrCurrency = mrr[0]?.currency.trim() ?? null;
  // The history: which subscriptions of a recurring plan were live at each month's end (started by
  // then, not ended by then). Pauses and past states are not kept per month, so the history counts
  // a subscription from its start to its end; this month's point is the current figure above.
  const history = mrrCurrency
    ? await client.$queryRaw<{ month: Date; value: Prisma.Decimal }[]>`
        SELECT e.month, COALESCE(round(sum(${MONTHLY_PRICE}), 2), 0) AS value
          FROM generate_series(${first}::timestamptz, ${monthStart(now, -1)}::timestamptz, interval '1 month') AS e(month)
          JOIN "Subscription" s ON s."schoolId" = ${schoolId}::uuid
               AND COALESCE(s."startAt", s."createdAt") < e.month + interval '1 month'
               AND (s."state" IN ('active', 'past_due') OR COALESCE(s."canceledAt", s."endAt") >= e.month + interval '1 month')
               AND s."state" NOT IN ('incomplete', 'incomplete_expired')
          JOIN "MembershipPlan" p ON p."id" = s."planId" AND p."planType" = 'recurring' AND p."currency" = ${mrrCurrency}
         GROUP BY e.month`
    : [];
  const mrrSeries = series(history, first);
  const current = mrr.find((m) => m.currency.trim() === mrrCurrency);
  if (current) mrrSeries[mrrSeries.length - 1]!.value = Number(current.amount);
  const newMembers = series(joined, first);
  const churnedSeries = series(churned, first);
  const failedSeries = series(failed, first);
  const at = (s: MonthPoint[]) => s.find((p) => p.month.getTime() === thisMonth.getTime())?.value ?? 0;
  return {
    activeMembers: Number(active[0]?.n ?? 0),
    newThisMonth: at(newMembers),
    churnedThisMonth: at(churnedSeries),
    failedPaymentsThisMonth: at(failedSeries),
    mrr: mrr.map((m) => ({ currency: m.currency.trim(), amount: Number(m.amount) })),
    series: { newMembers, churned: churnedSeries, failedPayments: failedSeries, mrr: mrrSeries, mrrCurrency },
  };
}
