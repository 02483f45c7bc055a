import { db } from "../db/client";
import { TX_OPTIONS } from "../db/write-transaction";
import { enqueueMail } from "../mail/enqueue";

/** How long before a scheduled end the member is told (docs/decisions.md, "Mail", "Ending soon"). */
export const ENDING_SOON_DAYS = 3;
const ENDING_SOON_MS = ENDING_SOON_DAYS * 24 * 3_600_000;

/**
 * Writes the "your membership ends on …" mail of every live subscription whose scheduled
 * cancellation (cancelAt) falls within the next ENDING_SOON_DAYS, once per scheduled end: one UPDATE
 * claims the rows by setting endingSoonMailedFor to that end (a concurrent run, on this instance or
 * another, re-checks the condition after the row lock and skips them), and the mails are written in
 * the same transaction, so a rolled-back run mails nothing and a retried one nothing twice. Taking
 * the cancellation back and scheduling the same end again mails nothing more. schoolId: only that
 * school's (its test clock); without it every school without a test clock, as the renewals.
 */
export async function enqueueEndingSoonMails(options: { now: Date; schoolId?: string }): Promise<number> {
  const { now } = options;
  const school = options.schoolId ?? null;
  const horizon = new Date(now.getTime() + ENDING_SOON_MS);
  return db().$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ id: string; schoolId: string; userId: string; email: string; plan: string; cancelAt: Date }[]>`
      UPDATE "Subscription" s SET "endingSoonMailedFor" = s."cancelAt"
        FROM "Subscription" c
        JOIN "User" u ON u."id" = c."userId"
        JOIN "MembershipPlan" p ON p."id" = c."planId"
        LEFT JOIN "SchoolBilling" b ON b."schoolId" = c."schoolId"
       WHERE s."id" = c."id"
         AND s."cancelAt" IS NOT NULL AND s."cancelAt" > ${now} AND s."cancelAt" <= ${horizon}
         AND s."state" IN ('active', 'trialing', 'past_due')
         AND s."pausedAt" IS NULL
         AND s."endingSoonMailedFor" IS DISTINCT FROM s."cancelAt"
         AND (CASE WHEN ${school}::uuid IS NULL THEN b."testClockAt" IS NULL ELSE c."schoolId" = ${school}::uuid END)
      RETURNING s."id"::text AS "id", s."schoolId"::text AS "schoolId", s."userId"::text AS "userId", u."email", p."name" AS "plan", s."cancelAt"`;
    for (const r of rows) {
      await enqueueMail(tx, {
        schoolId: r.schoolId,
        kind: "subscription-ending-soon",
        to: r.email,
        userId: r.userId,
        params: { subscriptionId: r.id, plan: r.plan, endAt: r.cancelAt.toISOString() },
        now,
      });
    }
    return rows.length;
  }, TX_OPTIONS);
}
