import { db } from "../db/client";
import type { Prisma, Subscription } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { afterTimeCursor, decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import { QueryInputError, pageSize } from "../core/page";
import { subscriptionInclude, type SubscriptionRecord } from "./record-types";
import { settleDueSubscriptions } from "./settle";
import { SUBSCRIPTION_STATES, isSubscriptionState } from "./states";
import { normalizeEmail } from "./users";

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
    Object.assign(where, afterTimeCursor(decodeTimeCursor(filter.after)));
  }
  await settleDueSubscriptions({ schoolId, now });
  const rows = await find({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: take + 1 });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor(last) : null } };
}
