import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { rawQuery } from "../db/raw";
import { isUuid } from "../core/ids";
import { afterTimeCursor, decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import { QueryInputError, pageSize } from "../core/page";
import type { SubscriptionRowWire } from "./presenter";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { settleDueSubscriptions } from "./settle";
import { SUBSCRIPTION_STATES, isSubscriptionState } from "./states";
import { normalizeEmail } from "./users";
import { unixSeconds } from "./wire-sql";

export interface SubscriptionFilter {
  first?: number | null;
  after?: string | null;
  planId?: string | null;
  email?: string | null;
  state?: string | null;
}

export interface SubscriptionPage<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

interface ListOptions {
  schoolId: string;
  filter: SubscriptionFilter;
  now: Date;
}

/** A filter's arguments checked, in the order their errors are reported; null: no row can match. */
interface CheckedFilter {
  take: number;
  state?: (typeof SUBSCRIPTION_STATES)[number];
  planId?: string;
  email?: string;
  after?: { createdAt: Date; id: string };
}

function checkFilter(filter: SubscriptionFilter): CheckedFilter | null {
  const checked: CheckedFilter = { take: pageSize(filter.first) };
  if (filter.state) {
    if (!isSubscriptionState(filter.state)) {
      throw new QueryInputError(`state must be one of: ${SUBSCRIPTION_STATES.join(", ")}`);
    }
    checked.state = filter.state;
  }
  if (filter.planId) {
    if (!isUuid(filter.planId)) return null;
    checked.planId = filter.planId;
  }
  if (filter.email) {
    const email = normalizeEmail(filter.email);
    if (!email) throw new QueryInputError("email is not a valid email address");
    checked.email = email;
  }
  if (filter.after) checked.after = decodeTimeCursor(filter.after);
  return checked;
}

const EMPTY_PAGE = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };

/** The school's subscriptions, oldest first, by (createdAt, id) cursor, with their plan and user. */
export async function listSubscriptions(options: ListOptions): Promise<SubscriptionPage<SubscriptionRecord>> {
  const { schoolId, now } = options;
  const filter = checkFilter(options.filter);
  if (!filter) return EMPTY_PAGE;
  const { take } = filter;
  const where: Prisma.SubscriptionWhereInput = { schoolId };
  if (filter.state) where.state = filter.state;
  if (filter.planId) where.planId = filter.planId;
  if (filter.email) where.user = { email: filter.email };
  if (filter.after) Object.assign(where, afterTimeCursor(filter.after));
  await settleDueSubscriptions({ schoolId, now });
  const rows = await db().subscription.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: take + 1, include: subscriptionInclude });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor(last) : null } };
}

/**
 * A page row as presentSubscriptionRow shows it, with the owner's id (for the per-request user
 * loader) and createdAt in milliseconds (for cursors; GraphQL shows neither).
 */
export type SubscriptionRowWithUser = SubscriptionRowWire & { userId: string; createdAtMs: number };

// The page's row columns in presentSubscriptionRow's shape (lib/membership/wire-sql.ts); isCanceling
// and isPaused are states.ts's isCanceling and presentSubscriptionRow's pausedAt !== null.
// "createdAtMs" is for the cursor of the page's last row only.
const ROW_COLUMNS = `
       s."id"::text AS "id", s."cancelReason", s."cancelType",
       ${unixSeconds('s."createdAt"')} AS "createdAt", ${unixSeconds('s."updatedAt"')} AS "updatedAt",
       ${unixSeconds('s."currentPeriodStart"')} AS "currentPeriodStart", ${unixSeconds('s."currentPeriodEnd"')} AS "currentPeriodEnd",
       ${unixSeconds('s."startAt"')} AS "startAt", ${unixSeconds('s."endAt"')} AS "endAt",
       ${unixSeconds('s."nextChargeDate"')} AS "nextChargeDate", ${unixSeconds('s."cancelAt"')} AS "cancelAt",
       ${unixSeconds('s."canceledAt"')} AS "canceledAt",
       (s."cancelAt" IS NOT NULL AND s."state" <> 'canceled') AS "isCanceling",
       s."planId"::text AS "planId", s."state"::text AS "state", s."collectionMethod"::text AS "collectionMethod",
       ${unixSeconds('s."pausedAt"')} AS "pausedAt", (s."pausedAt" IS NOT NULL) AS "isPaused",
       s."scheduledPlanId"::text AS "scheduledPlanId", s."userId"::text AS "userId",
       (extract(epoch from s."createdAt") * 1000)::float8 AS "createdAtMs"`;

/**
 * The statement for one combination of filters, named by it (at most 16 texts, each prepared once
 * per connection): the conditions Prisma wrote for listSubscriptions, so the same indexes serve it
 * (tests/pg/hot-plans.test.ts), including the cursor's redundant lower bound (afterTimeCursor).
 */
function pageStatement(schoolId: string, filter: CheckedFilter): { name: string; sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown, type: string) => `$${params.push(value)}::${type}`;
  const conditions = [`s."schoolId" = ${param(schoolId, "uuid")}`];
  if (filter.state) conditions.push(`s."state" = ${param(filter.state, '"SubscriptionState"')}`);
  if (filter.planId) conditions.push(`s."planId" = ${param(filter.planId, "uuid")}`);
  if (filter.email) conditions.push(`s."userId" IN (SELECT u."id" FROM "User" u WHERE u."email" = ${param(filter.email, "text")})`);
  if (filter.after) {
    const at = param(filter.after.createdAt, "timestamptz");
    const id = param(filter.after.id, "uuid");
    conditions.push(`s."createdAt" >= ${at} AND (s."createdAt" > ${at} OR (s."createdAt" = ${at} AND s."id" > ${id}))`);
  }
  const limit = param(filter.take + 1, "int4");
  const name = `admin-subscription-page-${filter.state ? "s" : ""}${filter.planId ? "p" : ""}${filter.email ? "e" : ""}${filter.after ? "a" : ""}`;
  // The page's rows are chosen in a subquery and only they are projected: when the planner sorts the
  // school's rows (a seq scan and a top-N sort, as PGlite plans a school of 10,000), the wire columns
  // would otherwise be computed for every row before the sort, 4× the statement's time there.
  const sql = `SELECT ${ROW_COLUMNS}
  FROM (SELECT * FROM "Subscription" s
         WHERE ${conditions.join("\n           AND ")}
         ORDER BY s."createdAt", s."id"
         LIMIT ${limit}) s
 ORDER BY s."createdAt", s."id"`;
  return { name, sql, params };
}

/**
 * listSubscriptions' page without plan and user, its rows already in the wire shape, in one named
 * statement: for the Admin API, whose per-request loaders read plan, user and payments in batches
 * when selected, so a field nobody selected costs nothing and aliases share one lookup.
 * `settle` (by default settleDueSubscriptions) runs before the read: the Admin API settles once per
 * request however many pages it reads.
 */
export async function listSubscriptionWireRows(
  options: ListOptions & { settle?: (o: { schoolId: string; now: Date }) => Promise<unknown> },
): Promise<SubscriptionPage<SubscriptionRowWithUser>> {
  const { schoolId, now } = options;
  const filter = checkFilter(options.filter);
  if (!filter) return EMPTY_PAGE;
  await (options.settle ?? settleDueSubscriptions)({ schoolId, now });
  const { name, sql, params } = pageStatement(schoolId, filter);
  // The rows go out as they came (no copy per row); createdAtMs stays on them, unseen by GraphQL.
  const rows = await rawQuery<SubscriptionRowWithUser>(sql, params, { name });
  const nodes = rows.length > filter.take ? rows.slice(0, filter.take) : rows;
  const last = nodes[nodes.length - 1];
  const endCursor = last ? encodeTimeCursor({ createdAt: new Date(last.createdAtMs), id: last.id }) : null;
  return { nodes, pageInfo: { hasNextPage: rows.length > filter.take, endCursor } };
}
