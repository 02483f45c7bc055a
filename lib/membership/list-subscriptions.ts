import { db } from "../db/client";
import type { Prisma, Subscription } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { QueryInputError, pageSize } from "../core/page";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { settleDueSubscriptions } from "./settle";
import { SUBSCRIPTION_STATES, isSubscriptionState } from "./states";
import { normalizeEmail } from "./users";

interface Cursor {
  c: string;
  i: string;
}
const encodeCursor = (s: { createdAt: Date; id: string }) =>
  Buffer.from(JSON.stringify({ c: s.createdAt.toISOString(), i: s.id } satisfies Cursor)).toString("base64url");

// The form encodeCursor writes (Date#toISOString) for years 0001 to 9999. Anything else is not a
// cursor of ours: JS dates reach ±275,760 years, beyond what the database can compare (a
// "+275760-09-13…" or "-000001-…" cursor used to be an INTERNAL_SERVER_ERROR).
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function decodeCursor(raw: string): { createdAt: Date; id: string } {
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Cursor;
    const createdAt = typeof v.c === "string" && CURSOR_TIME.test(v.c) ? new Date(v.c) : null;
    // Round trip: "2026-02-31T…" parses (as March 3) but is not a time we wrote.
    if (typeof v.i === "string" && isUuid(v.i) && createdAt && !Number.isNaN(createdAt.getTime()) && createdAt.toISOString() === v.c) {
      return { createdAt, id: v.i };
    }
  } catch {
    // fall through
  }
  throw new QueryInputError("after is not a valid cursor");
}

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

/** The school's subscriptions, oldest first, by (createdAt, id) cursor, with their plan and user. */
export function listSubscriptions(options: ListOptions): Promise<SubscriptionPage<SubscriptionRecord>> {
  return page(options, (args) => db().subscription.findMany({ ...args, include: subscriptionInclude }));
}

/**
 * The same page without plan and user: for callers that load those per request in batches (the
 * Admin API's loaders), so a field nobody selected costs nothing and aliases share one lookup.
 */
export function listSubscriptionRows(options: ListOptions): Promise<SubscriptionPage<Subscription>> {
  return page(options, (args) => db().subscription.findMany(args));
}

type FindArgs = Pick<Prisma.SubscriptionFindManyArgs, "where" | "orderBy" | "take">;

async function page<T extends { createdAt: Date; id: string }>(
  options: ListOptions,
  find: (args: FindArgs) => Promise<T[]>,
): Promise<SubscriptionPage<T>> {
  const { schoolId, filter, now } = options;
  const take = pageSize(filter.first);
  const where: Prisma.SubscriptionWhereInput = { schoolId };
  if (filter.state) {
    if (!isSubscriptionState(filter.state)) {
      throw new QueryInputError(`state must be one of: ${SUBSCRIPTION_STATES.join(", ")}`);
    }
    where.state = filter.state;
  }
  if (filter.planId) {
    if (!isUuid(filter.planId)) return { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };
    where.planId = filter.planId;
  }
  if (filter.email) {
    const email = normalizeEmail(filter.email);
    if (!email) throw new QueryInputError("email is not a valid email address");
    where.user = { email };
  }
  if (filter.after) {
    const c = decodeCursor(filter.after);
    // The redundant lower bound turns the page into a range scan of (schoolId, createdAt): the OR
    // alone is only a filter, so a deep page read and discarded every row before the cursor.
    where.createdAt = { gte: c.createdAt };
    where.OR = [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }];
  }
  await settleDueSubscriptions({ schoolId, now });
  const rows = await find({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: take + 1 });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeCursor(last) : null } };
}
