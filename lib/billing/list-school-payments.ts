import { db } from "../db/client";
import type { Payment, PaymentState, Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { pageSize, QueryInputError } from "../core/page";
import { beforeTimeCursor, decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import { timeRange } from "../audit/list-audit-events";

export const PAYMENT_STATES = ["pending", "succeeded", "failed", "refunded"] as const satisfies readonly PaymentState[];

export interface SchoolPaymentFilter {
  first?: number | null;
  after?: string | null;
  /** pending, succeeded, failed or refunded. */
  state?: string | null;
  /** Only this member's payments (a user id). */
  userId?: string | null;
  /** Only this subscription's payments. */
  subscriptionId?: string | null;
  /** Unix seconds: payments recorded at or after this time. */
  since?: number | null;
  /** Unix seconds: payments recorded before this time. */
  until?: number | null;
}

export interface SchoolPaymentPage {
  nodes: Payment[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const EMPTY: SchoolPaymentPage = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };
const isPaymentState = (v: string): v is PaymentState => (PAYMENT_STATES as readonly string[]).includes(v);

/**
 * The school's payments, newest first, by (createdAt, id) cursor; filtered by state, member,
 * subscription and time. Indexes: Payment(schoolId, createdAt, id), (schoolId, state, createdAt, id);
 * a member is their subscriptions' ids first (a handful), then Payment(subscriptionId), with their
 * one-time purchases by Payment(userId). An id that is
 * not a UUID matches nothing, as an unknown one does.
 */
export async function listSchoolPayments(options: { schoolId: string; filter: SchoolPaymentFilter }): Promise<SchoolPaymentPage> {
  const { schoolId, filter } = options;
  const take = pageSize(filter.first);
  // Every argument is checked before a filter can answer "nothing": a bad cursor is an error either way.
  const cursor = filter.after ? decodeTimeCursor(filter.after) : null;
  const where: Prisma.PaymentWhereInput = { schoolId };
  if (filter.state) {
    if (!isPaymentState(filter.state)) throw new QueryInputError(`state must be one of ${PAYMENT_STATES.join(", ")}`);
    where.state = filter.state;
  }
  const range = timeRange(filter);
  if (filter.subscriptionId) {
    if (!isUuid(filter.subscriptionId)) return EMPTY;
    where.subscriptionId = filter.subscriptionId;
  }
  if (filter.userId) {
    if (!isUuid(filter.userId)) return EMPTY;
    const subs = await db().subscription.findMany({ where: { schoolId, userId: filter.userId }, select: { id: true } });
    const ids = subs.map((s) => s.id).filter((id) => !filter.subscriptionId || id === filter.subscriptionId);
    // The member's one-time purchases (Payment.userId) count too, unless one subscription is asked for.
    if (filter.subscriptionId) {
      if (!ids.length) return EMPTY;
      where.subscriptionId = { in: ids };
    } else {
      where.OR = [...(ids.length ? [{ subscriptionId: { in: ids } }] : []), { userId: filter.userId }];
    }
  }
  const and: Prisma.PaymentWhereInput[] = [];
  if (range) and.push({ createdAt: range });
  if (cursor) and.push(beforeTimeCursor(cursor));
  if (and.length) where.AND = and;
  const rows = await db().payment.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: take + 1 });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor(last) : null } };
}
