import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { QueryInputError, pageSize } from "../core/page";
import { decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import type { MemberRecord } from "./member-record";
import { settleDueSubscriptions } from "./settle";
import { SUBSCRIPTION_STATES, isSubscriptionState } from "./states";

/** Longest search text: an email is at most 254 characters. */
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
  nameKey: string;
}

// A search page's position: after an email (the email matches come first, in email order), or after
// a lower-cased name and user id (then the members matched by name only, in name order).
type SearchCursor = { k: "e"; v: string } | { k: "n"; v: string; i: string };

const encodeSearchCursor = (c: SearchCursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

function decodeSearchCursor(raw: string): SearchCursor {
  try {
    const c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<{ k: string; v: unknown; i: unknown }>;
    if (typeof c.v === "string" && c.v.length <= 1024 && !c.v.includes("\0")) {
      if (c.k === "e") return { k: "e", v: c.v };
      if (c.k === "n" && typeof c.i === "string" && isUuid(c.i)) return { k: "n", v: c.v, i: c.i };
    }
  } catch {
    // fall through
  }
  throw new QueryInputError("after is not a valid cursor");
}

const SELECT = Prisma.sql`
  SELECT m."id" AS "membershipId", m."createdAt" AS "joinedAt", m."roles", u."id", u."email", u."name", u."emailVerified", lower(u."name") AS "nameKey"
    FROM "User" u
    JOIN "SchoolMembership" m ON m."userId" = u."id"`;

const where = (conditions: Prisma.Sql[]) => Prisma.join(conditions, " AND ");

/**
 * The school's members, a page at a time, in one or two statements with a LIMIT, each walking an
 * index in its order so that a page reads about as many rows as it returns, however many members:
 * - without search: in the order they joined, by (joinedAt, membership id) — SchoolMembership(schoolId, createdAt, id);
 * - with search (a case-insensitive prefix): the members whose email starts with it, in email order
 *   (User.email COLLATE "C"), then those whose name only starts with it, in name order
 *   (lower(User.name) COLLATE "C", id), each through its own index (migration 28a_member_search).
 * The plan and state filters are an EXISTS on the member's subscriptions at this school.
 */
export async function listMembers(options: { schoolId: string; filter: MemberFilter; now: Date }): Promise<MemberPage> {
  const { schoolId, filter, now } = options;
  const take = pageSize(filter.first);
  const search = filter.search?.trim().toLowerCase() ?? "";
  if (search.length > MAX_MEMBER_SEARCH) throw new QueryInputError(`search must be at most ${MAX_MEMBER_SEARCH} characters`);
  // Postgres text cannot hold U+0000: refused here rather than failing in the database.
  if (search.includes("\0")) throw new QueryInputError("search must not contain U+0000");
  if (filter.state && !isSubscriptionState(filter.state)) {
    throw new QueryInputError(`state must be one of: ${SUBSCRIPTION_STATES.join(", ")}`);
  }
  const searchCursor = search && filter.after ? decodeSearchCursor(filter.after) : null;
  const joinCursor = !search && filter.after ? decodeTimeCursor(filter.after) : null;
  if (filter.planId && !isUuid(filter.planId)) return EMPTY;

  const common: Prisma.Sql[] = [Prisma.sql`m."schoolId" = ${schoolId}::uuid`];
  if (filter.planId || filter.state) {
    const plan = filter.planId ? Prisma.sql`AND s."planId" = ${filter.planId}::uuid` : Prisma.empty;
    const state = filter.state ? Prisma.sql`AND s."state" = ${filter.state}::"SubscriptionState"` : Prisma.empty;
    common.push(Prisma.sql`EXISTS (SELECT 1 FROM "Subscription" s WHERE s."schoolId" = m."schoolId" AND s."userId" = m."userId" ${plan} ${state})`);
  }
  // A state filter reads states: the time-driven transitions due by now are applied first, as for subscriptions.
  if (filter.state) await settleDueSubscriptions({ schoolId, now });

  if (!search) {
    const conditions = [...common];
    if (joinCursor) conditions.push(Prisma.sql`(m."createdAt", m."id") > (${joinCursor.createdAt}::timestamptz, ${joinCursor.id}::uuid)`);
    const rows = await db().$queryRaw<Row[]>`${SELECT} WHERE ${where(conditions)} ORDER BY m."createdAt", m."id" LIMIT ${take + 1}`;
    const nodes = rows.slice(0, take);
    const last = nodes[nodes.length - 1];
    return { nodes: nodes.map(record), pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor({ createdAt: last.joinedAt, id: last.membershipId }) : null } };
  }

  // Bound values: the unnamed statement is planned with them, so the prefix reaches the index as a range.
  const pattern = likePrefix(search);
  const emailMatch = Prisma.sql`(u."email" COLLATE "C") LIKE ${pattern}`;
  let byEmail: Row[] = [];
  if (searchCursor?.k !== "n") {
    const conditions = [...common, emailMatch];
    if (searchCursor) conditions.push(Prisma.sql`(u."email" COLLATE "C") > ${searchCursor.v}`);
    byEmail = await db().$queryRaw<Row[]>`${SELECT} WHERE ${where(conditions)} ORDER BY u."email" COLLATE "C" LIMIT ${take + 1}`;
    if (byEmail.length > take) return page(byEmail.slice(0, take), true);
  }
  const room = take - byEmail.length;
  const nameKey = Prisma.sql`(lower(u."name") COLLATE "C")`;
  const conditions = [...common, Prisma.sql`${nameKey} LIKE ${pattern}`, Prisma.sql`NOT ${emailMatch}`];
  if (searchCursor?.k === "n") {
    // The first bound alone is what the index range uses; the OR breaks ties between equal names.
    conditions.push(Prisma.sql`${nameKey} >= ${searchCursor.v}`, Prisma.sql`(${nameKey} > ${searchCursor.v} OR u."id" > ${searchCursor.i}::uuid)`);
  }
  const byName = await db().$queryRaw<Row[]>`${SELECT} WHERE ${where(conditions)} ORDER BY ${nameKey}, u."id" LIMIT ${room + 1}`;
  return page([...byEmail, ...byName.slice(0, room)], byName.length > room, byEmail.length);
}

/** A search page; `emailRows` of its nodes (the first ones) matched by email, the rest by name. */
function page(rows: Row[], hasNextPage: boolean, emailRows = rows.length): MemberPage {
  const last = rows[rows.length - 1];
  let endCursor: string | null = null;
  if (last) endCursor = encodeSearchCursor(rows.length <= emailRows ? { k: "e", v: last.email } : { k: "n", v: last.nameKey, i: last.id });
  return { nodes: rows.map(record), pageInfo: { hasNextPage, endCursor } };
}

function record(r: Row): MemberRecord {
  return { id: r.id, email: r.email, name: r.name, emailVerified: r.emailVerified, roles: r.roles, joinedAt: r.joinedAt, membershipId: r.membershipId };
}
