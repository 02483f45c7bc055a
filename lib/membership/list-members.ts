import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { QueryInputError, pageSize } from "../core/page";
import { decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import type { MemberRecord } from "./member-record";
import { settleDueSubscriptions } from "./settle";
import { SUBSCRIPTION_STATES, isSubscriptionState } from "./states";

/** Longest search text: an email is at most 254 characters, a stored name 200. */
export const MAX_MEMBER_SEARCH = 254;

export interface MemberFilter {
  first?: number | null;
  after?: string | null;
  /** Case-insensitive prefix of the member's email or of their name. */
  search?: string | null;
  /** Only members with a subscription to this plan (in `state` when both are given). */
  planId?: string | null;
  /** Only members with a subscription in this state. */
  state?: string | null;
}

export interface MemberPage {
  nodes: MemberRecord[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const EMPTY: MemberPage = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };

/** A LIKE pattern matching text that starts with `prefix` literally (backslash is LIKE's escape). */
export const likePrefix = (prefix: string): string => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface Row {
  membershipId: string;
  joinedAt: Date;
  roles: string[];
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * The school's members, in the order they joined (oldest first), by (joinedAt, membership id)
 * cursor. One statement with a LIMIT: the search is a prefix match on User.email and lower(User.name)
 * (both indexed with text_pattern_ops), the plan and state filters are an EXISTS on the member's
 * subscriptions at this school (index Subscription(schoolId, userId)); no filter walks the whole table.
 */
export async function listMembers(options: { schoolId: string; filter: MemberFilter; now: Date }): Promise<MemberPage> {
  const { schoolId, filter, now } = options;
  const take = pageSize(filter.first);
  const conditions: Prisma.Sql[] = [Prisma.sql`m."schoolId" = ${schoolId}::uuid`];

  const search = filter.search?.trim().toLowerCase() ?? "";
  if (search.length > MAX_MEMBER_SEARCH) throw new QueryInputError(`search must be at most ${MAX_MEMBER_SEARCH} characters`);
  // Postgres text cannot hold U+0000: refused here rather than failing in the database.
  if (search.includes("\0")) throw new QueryInputError("search must not contain U+0000");
  if (search) {
    // The pattern is a bound value: the unnamed statement is planned with it, so the prefix
    // reaches the index as a range (a generic plan could not use it).
    const pattern = likePrefix(search);
    // Emails are stored lower-cased by normalizeEmail (JS); names are compared with the database's lower().
    conditions.push(Prisma.sql`(u."email" LIKE ${pattern} OR lower(u."name") LIKE lower(${pattern}))`);
  }

  if (filter.state && !isSubscriptionState(filter.state)) {
    throw new QueryInputError(`state must be one of: ${SUBSCRIPTION_STATES.join(", ")}`);
  }
  if (filter.planId && !isUuid(filter.planId)) return EMPTY;
  if (filter.planId || filter.state) {
    const plan = filter.planId ? Prisma.sql`AND s."planId" = ${filter.planId}::uuid` : Prisma.empty;
    const state = filter.state ? Prisma.sql`AND s."state" = ${filter.state}::"SubscriptionState"` : Prisma.empty;
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM "Subscription" s WHERE s."schoolId" = m."schoolId" AND s."userId" = m."userId" ${plan} ${state})`);
  }

  if (filter.after) {
    const c = decodeTimeCursor(filter.after);
    conditions.push(Prisma.sql`(m."createdAt", m."id") > (${c.createdAt}::timestamptz, ${c.id}::uuid)`);
  }
  // A state filter reads states: the time-driven transitions due by now are applied first, as for subscriptions.
  if (filter.state) await settleDueSubscriptions({ schoolId, now });

  const rows = await db().$queryRaw<Row[]>`
    SELECT m."id" AS "membershipId", m."createdAt" AS "joinedAt", m."roles", u."id", u."email", u."name", u."emailVerified"
      FROM "SchoolMembership" m
      JOIN "User" u ON u."id" = m."userId"
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY m."createdAt", m."id"
     LIMIT ${take + 1}`;
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return {
    nodes,
    pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor({ createdAt: last.joinedAt, id: last.membershipId }) : null },
  };
}
