// Live subscriptions for the bench's workloads that read or change existing subscriptions
// (updateSubscription, cancelSubscription, subscriptions by email): `count` members of the school,
// each with a live monthly subscription the school collects itself (collectionMethod external, so no
// renewal charges while the bench runs), half-way through its period. Written by set-based INSERT …
// SELECT generate_series statements like the other bench datasets; ids and emails are derived from
// `tag` and the row number, so the workloads know them without reading them back.
import { createHash } from "node:crypto";
import { encodeTimeCursor } from "../lib/core/time-cursor";
import { memberStatements } from "./dataset-members";

export interface SubscriptionPoolOptions {
  schoolId: string;
  /** A recurring plan of the school (the demo's Monthly). */
  planId: string;
  count: number;
  /** Names this set (letters, digits): several sets in one database stay apart. */
  tag: string;
}

export interface SubscriptionPool {
  /** Subscription ids, in row order. */
  ids: string[];
  /** Each subscription's member's email, in the same order. */
  emails: string[];
}

/** md5(text)::uuid as Postgres reads it: the 32 hex digits grouped 8-4-4-4-12. */
export function md5Uuid(text: string): string {
  const h = createHash("md5").update(text, "utf8").digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const check = (o: SubscriptionPoolOptions) => {
  if (!/^[0-9a-f-]{36}$/i.test(o.schoolId) || !/^[0-9a-f-]{36}$/i.test(o.planId)) throw new Error("schoolId and planId must be UUIDs");
  if (!/^[a-z0-9]+$/.test(o.tag)) throw new Error("tag must be letters and digits");
  if (!Number.isInteger(o.count) || o.count < 1) throw new Error(`count must be a positive integer, got ${o.count}`);
};

// The same text the statements below build in SQL (a test compares them row by row).
const subText = (tag: string, i: number) => `subpool-${tag}-sub-${i}`;
const emailOf = (tag: string, i: number) => `pool-${tag}-${i}@bench.schoolhouse.test`;

export function subscriptionPool(o: SubscriptionPoolOptions): SubscriptionPool {
  check(o);
  const rows = Array.from({ length: o.count }, (_, i) => i);
  return { ids: rows.map((i) => md5Uuid(subText(o.tag, i))), emails: rows.map((i) => emailOf(o.tag, i)) };
}

export function subscriptionPoolStatements(o: SubscriptionPoolOptions): string[] {
  check(o);
  const n = o.count - 1;
  const user = `md5('subpool-${o.tag}-user-' || i)::uuid`;
  return [
    ...memberStatements({ schoolId: o.schoolId, last: n, userId: user, email: `'pool-${o.tag}-' || i || '@bench.schoolhouse.test'`, name: "'Pool Member ' || i" }),
    `INSERT INTO "Subscription" ("id", "schoolId", "userId", "planId", "state", "startAt", "currentPeriodStart", "currentPeriodEnd",
                                 "nextChargeDate", "collectionMethod", "createdAt", "updatedAt")
     SELECT md5('subpool-${o.tag}-sub-' || i)::uuid, '${o.schoolId}'::uuid, ${user}, '${o.planId}'::uuid, 'active',
            now() - interval '15 days', now() - interval '15 days', now() + interval '15 days',
            now() + interval '15 days', 'external', now() - interval '15 days', now()
       FROM generate_series(0, ${n}) AS i`,
    `ANALYZE "User", "SchoolMembership", "Subscription"`,
  ];
}

/**
 * The Admin API's cursor (lib/core/time-cursor.ts) of the subscription seven eighths into the
 * school's list, oldest first: the bench's deep page starts after it. Null for a school without one.
 */
export async function deepSubscriptionCursor(
  db: { $queryRawUnsafe<T>(sql: string, ...values: unknown[]): Promise<T> },
  schoolId: string,
): Promise<string | null> {
  const rows = await db.$queryRawUnsafe<{ createdAt: Date; id: string }[]>(
    `SELECT "createdAt", "id" FROM "Subscription" WHERE "schoolId" = $1::uuid ORDER BY "createdAt", "id"
      OFFSET (SELECT count(*) * 7 / 8 FROM "Subscription" WHERE "schoolId" = $1::uuid) LIMIT 1`,
    schoolId,
  );
  return rows[0] ? encodeTimeCursor({ createdAt: new Date(rows[0].createdAt), id: rows[0].id }) : null;
}
