import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";

type Tx = Prisma.TransactionClient;

export interface SettleResult {
  /** Scheduled cancellations that took effect. */
  canceled: number;
  /** fixed_date / specific_length subscriptions whose end passed. */
  expired: number;
}

/**
 * Applies the transitions that time causes: a scheduled cancellation (cancelAt) that has passed
 * becomes `canceled` (canceledAt = endAt = cancelAt), and a live fixed_date / specific_length
 * subscription whose endAt has passed becomes `expired`. Called lazily before every Admin API read
 * or write of a school's subscriptions, and for all schools by the cron route; both are idempotent,
 * so a late or missed cron run never shows a stale state.
 */
export async function settleDueSubscriptions(options: {
  now: Date;
  schoolId?: string;
  /** Only this user's and plan's subscriptions (what createSubscription's uniqueness depends on). */
  userId?: string;
  planId?: string;
  tx?: Tx;
}): Promise<SettleResult> {
  const { now } = options;
  const client = options.tx ?? db();
  const school = options.schoolId ?? null;
  const user = options.userId ?? null;
  const plan = options.planId ?? null;
  const canceled = await client.$executeRaw`
    UPDATE "Subscription"
       SET "state" = 'canceled', "canceledAt" = "cancelAt", "endAt" = "cancelAt",
           "cancelAt" = NULL, "nextChargeDate" = NULL, "updatedAt" = ${now}
     WHERE "cancelAt" IS NOT NULL AND "cancelAt" <= ${now}
       AND "state" <> 'canceled'
       AND (${school}::uuid IS NULL OR "schoolId" = ${school}::uuid)
       AND (${user}::uuid IS NULL OR "userId" = ${user}::uuid)
       AND (${plan}::uuid IS NULL OR "planId" = ${plan}::uuid)`;
  const expired = await client.$executeRaw`
    UPDATE "Subscription" s
       SET "state" = 'expired', "nextChargeDate" = NULL, "updatedAt" = ${now}
      FROM "MembershipPlan" p
     WHERE p."id" = s."planId" AND p."planType" IN ('fixed_date', 'specific_length')
       AND s."endAt" IS NOT NULL AND s."endAt" <= ${now}
       AND s."state" IN ('active', 'trialing', 'past_due', 'incomplete')
       AND (${school}::uuid IS NULL OR s."schoolId" = ${school}::uuid)
       AND (${user}::uuid IS NULL OR s."userId" = ${user}::uuid)
       AND (${plan}::uuid IS NULL OR s."planId" = ${plan}::uuid)`;
  return { canceled, expired };
}
