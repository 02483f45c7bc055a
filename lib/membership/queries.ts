import { db } from "../db/client";
import { cachedContent } from "../db/content-cache";
import type { Prisma, SubscriptionState } from "../db/generated/client";
import { isUuid } from "./ids";
import { subscriptionInclude, type SubscriptionRecord } from "./records";
import { settleDueSubscriptions } from "./settle";
import { normalizeEmail } from "./users";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** A bad argument to a query; rendered as a GraphQL error with code BAD_USER_INPUT. */
export class QueryInputError extends Error {
  override name = "QueryInputError";
}

export function pageSize(first: number | null | undefined): number {
  const n = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
    throw new QueryInputError(`first must be between 1 and ${MAX_PAGE_SIZE}`);
  }
  return n;
}

export function listMembershipPlans(options: { schoolId: string }) {
  return db().membershipPlan.findMany({ where: { schoolId: options.schoolId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
}

/** The school's courses, from the content cache: a course write shows within STOREFRONT_REVALIDATE_MS. */
export function listCourses(options: { schoolId: string; first?: number | null }) {
  const take = pageSize(options.first);
  return cachedContent(`admin-courses\u0000${options.schoolId}\u0000${take}`, async () => {
    const rows = await db().course.findMany({ where: { schoolId: options.schoolId }, orderBy: [{ position: "asc" }, { id: "asc" }], take });
    return { value: rows, bytes: rows.reduce((n, r) => n + 512 + r.body.length + r.summary.length, 0) };
  });
}

export async function findSubscription(options: { schoolId: string; id: string; now: Date }): Promise<SubscriptionRecord | null> {
  if (!isUuid(options.id)) return null;
  await settleDueSubscriptions({ schoolId: options.schoolId, now: options.now });
  return db().subscription.findFirst({ where: { id: options.id, schoolId: options.schoolId }, include: subscriptionInclude });
}

const STATES: readonly SubscriptionState[] = ["active", "incomplete", "incomplete_expired", "trialing", "past_due", "canceled", "expired"];

interface Cursor {
  c: string;
  i: string;
}
const encodeCursor = (s: { createdAt: Date; id: string }) =>
  Buffer.from(JSON.stringify({ c: s.createdAt.toISOString(), i: s.id } satisfies Cursor)).toString("base64url");

function decodeCursor(raw: string): { createdAt: Date; id: string } {
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Cursor;
    const createdAt = new Date(v.c);
    if (typeof v.i === "string" && isUuid(v.i) && !Number.isNaN(createdAt.getTime())) return { createdAt, id: v.i };
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

/** The school's subscriptions, oldest first, by (createdAt, id) cursor. */
export async function listSubscriptions(options: { schoolId: string; filter: SubscriptionFilter; now: Date }) {
  const { schoolId, filter, now } = options;
  const take = pageSize(filter.first);
  const where: Prisma.SubscriptionWhereInput = { schoolId };
  if (filter.state) {
    if (!STATES.includes(filter.state as SubscriptionState)) {
      throw new QueryInputError(`state must be one of: ${STATES.join(", ")}`);
    }
    where.state = filter.state as SubscriptionState;
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
    where.OR = [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }];
  }
  await settleDueSubscriptions({ schoolId, now });
  const rows = await db().subscription.findMany({
    where,
    include: subscriptionInclude,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: take + 1,
  });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeCursor(last) : null } };
}
