import type { OutboxEvent } from "../db/outbox";
import type { Prisma } from "../db/generated/client";
import { enqueueMail, type MailKind } from "./enqueue";

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
  const ended = new Set(events.filter((e) => e.type === "subscription.canceled").map((e) => e.subjectId));
  for (const event of events) {
    if (event.type === "payment.refunded") {
      const payment = await paymentOf(tx, event.subjectId);
      if (!payment) continue;
      await enqueuePaymentMail(tx, payment, "payment-refunded", { refundedAmount: payment.refundedAmount.toFixed(2), refundedAt: iso(payment.refundedAt ?? now) }, now);
    } else if (event.type === "payment.succeeded" || event.type === "payment.failed") {
      const payment = await paymentOf(tx, event.subjectId);
      if (!payment) continue;
      const s = payment.subscription;
      if (!s) {
        // A one-time purchase: its receipt (a checkout records it paid; it never fails or renews).
        if (event.type === "payment.succeeded") await enqueuePaymentMail(tx, payment, "purchase-receipt", { paidAt: iso(payment.paidAt), periodStart: null, periodEnd: null }, now);
        continue;
      }
      if (event.type === "payment.failed" && ended.has(s.id)) continue;
      // The first payment a subscription collects is its purchase, also when a trial's end charges it.
      const collectedBefore =
        event.type === "payment.succeeded" &&
        (await tx.payment.count({ where: { subscriptionId: s.id, id: { not: payment.id }, state: { in: ["succeeded", "refunded"] } } })) > 0;
      const kind: MailKind = event.type === "payment.failed" ? "payment-failed" : collectedBefore ? "renewal-receipt" : "purchase-receipt";
      const params = {
        periodStart: iso(payment.periodStart),
        periodEnd: iso(payment.periodEnd),
        paidAt: iso(payment.paidAt),
        failureMessage: payment.failureMessage,
        // After a failure: when the card is tried again (null: not retried, as a first charge).
        nextAttemptAt: event.type === "payment.failed" ? iso(s.nextChargeDate) : null,
        state: s.state,
      };
      await enqueuePaymentMail(tx, payment, kind, params, now);
    } else if (event.type === "subscription.canceled") {
      const s = await tx.subscription.findUnique({
        where: { id: event.subjectId },
        include: { plan: { select: { name: true } }, user: { select: { id: true, email: true } } },
      });
      if (!s) continue;
      await enqueueMail(tx, {
        schoolId: s.schoolId,
        kind: "subscription-canceled",
        to: s.user.email,
        userId: s.user.id,
        params: { subscriptionId: s.id, plan: s.plan.name, cancelType: s.cancelType, endAt: iso(s.endAt ?? s.canceledAt) },
        now,
      });
    }
  }
}

const paymentOf = (tx: Tx, id: string) =>
  tx.payment.findUnique({
    where: { id },
    include: { subscription: { include: { plan: { select: { name: true } }, user: { select: { id: true, email: true } } } }, user: { select: { id: true, email: true } } },
  });

type PaymentWithSubscription = NonNullable<Awaited<ReturnType<typeof paymentOf>>>;

/**
 * A mail about one payment to its member: what every payment mail says, and the kind's own fields.
 * A subscription's payment names its plan; a one-time purchase its item (`item`, `itemKind`), and
 * `plan` carries the item's name for templates that only know plans.
 */
async function enqueuePaymentMail(tx: Tx, payment: PaymentWithSubscription, kind: MailKind, own: Record<string, unknown>, now: Date) {
  const s = payment.subscription;
  const user = s?.user ?? payment.user;
  if (!user) return;
  const item = s ? null : { item: payment.description ?? "", itemKind: payment.courseId ? "course" : "download" };
  await enqueueMail(tx, {
    schoolId: payment.schoolId,
    kind,
    to: user.email,
    userId: user.id,
    params: { paymentId: payment.id, subscriptionId: s?.id ?? null, plan: s ? s.plan.name : (payment.description ?? ""), ...item, amount: payment.amount.toFixed(2), currency: payment.currency, ...own },
    now,
  });
}
