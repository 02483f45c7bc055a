import type { OutboxEvent } from "../db/outbox";
import type { Prisma } from "../db/generated/client";
import { enqueueMails, type MailKind, type MailRequest } from "./enqueue";

type Tx = Prisma.TransactionClient;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The member's mails of a billing transition, from the events the transition records, in its
 * transaction (so a rolled-back transition mails nothing and each event mails once):
 * payment.succeeded → purchase-receipt (the subscription's first collected payment, a trial's
 * end included) or renewal-receipt (a later one, retries included),
 * a one-time purchase's payment.succeeded (a course or download bought at checkout; no
 * subscription) → purchase-receipt for that item,
 * payment.failed → payment-failed (unless the same transition ended the subscription: its
 * subscription-canceled mail says why), subscription.canceled → subscription-canceled,
 * payment.refunded → payment-refunded.
 * Every place that records those events calls this with the same list, after writing the
 * transition (the mail says the subscription's state and next attempt as the transition left them).
 */
export async function enqueueBillingMails(tx: Tx, options: { events: OutboxEvent[]; now: Date }): Promise<void> {
  const { events, now } = options;
  // What the mails say is read, and they are written, in a fixed number of statements whatever the
  // number of events (a renewal run records a batch of transitions at once).
  const ended = new Set(events.filter((e) => e.type === "subscription.canceled").map((e) => e.subjectId));
  const paymentIds = events.filter((e) => e.type === "payment.refunded" || e.type === "payment.succeeded" || e.type === "payment.failed").map((e) => e.subjectId);
  const payments = new Map((paymentIds.length ? await tx.$queryRawUnsafe<PaymentFacts[]>(PAYMENT_FACTS_SQL, paymentIds) : []).map((p) => [p.id, p]));
  const canceledIds = [...ended];
  const canceled = new Map(
    (canceledIds.length
      ? await tx.subscription.findMany({ where: { id: { in: canceledIds } }, include: { plan: { select: { name: true } }, user: { select: { id: true, email: true } } } })
      : []
    ).map((s) => [s.id, s]),
  );
  const mails: (MailRequest | null)[] = [];
  for (const event of events) {
    if (event.type === "payment.refunded") {
      const payment = payments.get(event.subjectId);
      if (!payment) continue;
      mails.push(paymentMail(payment, "payment-refunded", { refundedAmount: payment.refundedAmount, refundedAt: iso(payment.refundedAt ?? now) }, now));
    } else if (event.type === "payment.succeeded" || event.type === "payment.failed") {
      const payment = payments.get(event.subjectId);
      if (!payment) continue;
      if (payment.subscriptionId === null) {
        // A one-time purchase: its receipt (a checkout records it paid; it never fails or renews).
        if (event.type === "payment.succeeded") mails.push(paymentMail(payment, "purchase-receipt", { paidAt: iso(payment.paidAt), periodStart: null, periodEnd: null }, now));
        continue;
      }
      if (event.type === "payment.failed" && ended.has(payment.subscriptionId)) continue;
      // The first payment a subscription collects is its purchase, also when a trial's end charges it.
      const collectedBefore = event.type === "payment.succeeded" && payment.collectedBefore;
      const kind: MailKind = event.type === "payment.failed" ? "payment-failed" : collectedBefore ? "renewal-receipt" : "purchase-receipt";
      const params = {
        periodStart: iso(payment.periodStart),
        periodEnd: iso(payment.periodEnd),
        paidAt: iso(payment.paidAt),
        failureMessage: payment.failureMessage,
        // After a failure: when the card is tried again (null: not retried, as a first charge).
        nextAttemptAt: event.type === "payment.failed" ? iso(payment.nextChargeDate) : null,
        state: payment.subscriptionState,
      };
      mails.push(paymentMail(payment, kind, params, now));
    } else if (event.type === "subscription.canceled") {
      const s = canceled.get(event.subjectId);
      if (!s) continue;
      mails.push({
        schoolId: s.schoolId,
        kind: "subscription-canceled",
        to: s.user.email,
        userId: s.user.id,
        params: { subscriptionId: s.id, plan: s.plan.name, cancelType: s.cancelType, endAt: iso(s.endAt ?? s.canceledAt) },
        now,
      });
    }
  }
  await enqueueMails(tx, mails.filter((m): m is MailRequest => m !== null));
}

/**
 * What a payment's mail says, with its subscription, plan and member, and whether the subscription
 * collected another payment before; a one-time purchase has no subscription: its buyer and item.
 */
interface PaymentFacts {
  id: string;
  schoolId: string;
  subscriptionId: string | null;
  amount: string;
  currency: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  paidAt: Date | null;
  failureMessage: string | null;
  refundedAmount: string;
  refundedAt: Date | null;
  nextChargeDate: Date | null;
  subscriptionState: string | null;
  /** The plan's name, or a one-time purchase's item name at the time. */
  plan: string;
  description: string | null;
  courseId: string | null;
  userId: string | null;
  email: string | null;
  collectedBefore: boolean;
}

// One statement for any number of payments (amounts as text: numeric(12,2) prints with its two decimals).
// collectedBefore reads the subscription's own payments by subscriptionId and tests their state in
// the aggregate, never in the WHERE: with the state there, a planner whose statistics predate a
// renewal run (no autovacuum yet, or PGlite, which has none) ANDed the subscriptionId index with the
// state index and read every succeeded payment of the database for each row: 31 ms a batch of 200
// at 15,000 renewals, 279 ms at 95,000 (docs/benchmarks.md, "Renewals").
const PAYMENT_FACTS_SQL = `
SELECT p."id"::text AS "id", p."schoolId"::text AS "schoolId", p."subscriptionId"::text AS "subscriptionId", p."amount"::text AS "amount",
       p."currency", p."periodStart", p."periodEnd", p."paidAt", p."failureMessage", p."refundedAmount"::text AS "refundedAmount", p."refundedAt",
       s."nextChargeDate", s."state"::text AS "subscriptionState", COALESCE(pl."name", p."description", '') AS "plan", p."description",
       p."courseId"::text AS "courseId", u."id"::text AS "userId", u."email",
       COALESCE((SELECT bool_or(o."id" <> p."id" AND o."state" IN ('succeeded', 'refunded')) FROM "Payment" o WHERE o."subscriptionId" = p."subscriptionId"), false) AS "collectedBefore"
  FROM "Payment" p
  LEFT JOIN "Subscription" s ON s."id" = p."subscriptionId"
  LEFT JOIN "MembershipPlan" pl ON pl."id" = s."planId"
  LEFT JOIN "User" u ON u."id" = COALESCE(s."userId", p."userId")
 WHERE p."id" = ANY($1::text[]::uuid[])`;

/**
 * A mail about one payment to its member: what every payment mail says, and the kind's own fields.
 * A subscription's payment names its plan; a one-time purchase its item (`item`, `itemKind`), and
 * `plan` carries the item's name for templates that only know plans.
 */
function paymentMail(payment: PaymentFacts, kind: MailKind, own: Record<string, string | number | boolean | null>, now: Date): MailRequest | null {
  if (!payment.email || !payment.userId) return null;
  const item = payment.subscriptionId === null ? { item: payment.description ?? "", itemKind: payment.courseId ? "course" : "download" } : null;
  return {
    schoolId: payment.schoolId,
    kind,
    to: payment.email,
    userId: payment.userId,
    params: { paymentId: payment.id, subscriptionId: payment.subscriptionId, plan: payment.plan, ...item, amount: payment.amount, currency: payment.currency, ...own },
    now,
  };
}
