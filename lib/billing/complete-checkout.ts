import { isUuid } from "../core/ids";
import { db } from "../db/client";
import type { CheckoutSession, Payment, PaymentProvider, Prisma } from "../db/generated/client";
import { recordAudit, type AuditActor } from "../db/audit";
import { recordEvents, type OutboxEvent } from "../db/outbox";
import { failure, isUniqueViolation, success, TX_OPTIONS, type Payload } from "../db/write-transaction";
import { enqueueBillingMails } from "../mail/billing-mails";
import { presentPayment, presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { settleDueSubscriptions } from "../membership/settle";
import { recordEnrollment } from "../membership/enroll-student";
import { recordDownloadAccess } from "../membership/grant-download-access";
import { findOrCreateMember } from "../membership/users";
import { chargeNow } from "./charge-now";
import {
  CHECKOUT_ALREADY_MEMBER,
  CHECKOUT_EXPIRED,
  CHECKOUT_NOT_FOUND,
  CHECKOUT_NOT_PAID,
  checkoutItemRef,
  checkoutMessages,
  checkoutPeriods,
  findCheckoutItem,
  ownsItem,
  type CheckoutItemRef,
} from "./checkout-rules";
import { providerOfPayment } from "./provider-for";

type Tx = Prisma.TransactionClient;

/** What every payment the hosted page collected says: the checkout's price, its provider's charge, paid now, one attempt. */
function paidAtCheckout(checkout: CheckoutSession, hosted: { paymentMethodId: string; providerPaymentId: string | null }, now: Date) {
  return {
    amount: checkout.amount,
    currency: checkout.currency,
    state: "succeeded" as const,
    paidAt: now,
    provider: checkout.provider as PaymentProvider,
    providerPaymentId: hosted.providerPaymentId,
    paymentMethodId: hosted.paymentMethodId,
    // Derived from the checkout: a second completion (the browser and the provider's webhook) cannot write a second payment.
    idempotencyKey: `checkout_${checkout.id}`,
    attempt: 1,
    createdAt: now,
    updatedAt: now,
  };
}

export interface CompletedCheckout {
  checkout: CheckoutSession;
  /** A plan's subscription; null for a course or a download. */
  subscription: SubscriptionRecord | null;
  /** A course's or download's one-time payment (its receipt); null for a plan. */
  payment: Payment | null;
}

const LIVE_INDEX = "Subscription_live_user_plan_key";

/** Completing would give the member what they already have (or what no longer exists): the transaction rolls back. */
class CheckoutRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Completes a paid checkout once, whoever asks first (the browser's return, the provider's
 * webhook, a retry): the outcome is read from the provider (getHostedCheckout), never from the
 * request. In one transaction, with the checkout row locked: the account when new (joining the
 * school: welcome mail with the password link, email verification), the subscription at the price
 * the checkout copied from the content (charge_automatically with the saved card; a trial is
 * `trialing` until its end), the payment the hosted page collected, the webhook events and the
 * receipt mail, and the checkout marked complete. A completed checkout is answered as it is, so a
 * reused return link creates nothing twice. A provider that saved the card without charging it
 * leaves the first charge to chargeNow, as createSubscription does: `incomplete` when it fails.
 * A course or a download bought once is completed by completeOneTime (below) under the same rules.
 */
export async function completeCheckout(options: { schoolId: string; checkoutId: string; now: Date }): Promise<Payload<CompletedCheckout>> {
  const { schoolId, checkoutId, now } = options;
  if (!isUuid(checkoutId)) return failure(CHECKOUT_NOT_FOUND);
  const found = await db().checkoutSession.findFirst({ where: { id: checkoutId, schoolId } });
  if (!found) return failure(CHECKOUT_NOT_FOUND);
  if (found.status === "complete") return success(await completed(found));
  if (found.status === "expired" || !found.providerSessionId) return failure(CHECKOUT_EXPIRED);

  // The provider that hosts it (recorded at the start), even if the school has changed provider since.
  const provider = await providerOfPayment({ schoolId, provider: found.provider });
  const hosted = await provider.getHostedCheckout({ providerSessionId: found.providerSessionId });
  if (hosted.status !== "complete") {
    if (hosted.status === "expired" || found.expiresAt <= now) {
      await db().checkoutSession.updateMany({ where: { id: found.id, status: "open" }, data: { status: "expired" } });
      return failure(CHECKOUT_EXPIRED);
    }
    return failure(CHECKOUT_NOT_PAID);
  }
  const ref = checkoutItemRef(found);
  // A one-time purchase is complete only once it is charged: there is no later first charge.
  if (ref.kind !== "plan" && hosted.providerPaymentId === null) return failure(CHECKOUT_NOT_PAID);

  let outcome: { checkout: CheckoutSession; chargeFirst: boolean };
  try {
    outcome = await db().$transaction(
      async (tx) => (ref.kind === "plan" ? complete(tx, { checkoutId: found.id, hosted, now }) : completeOneTime(tx, { checkoutId: found.id, ref, hosted, now })),
      TX_OPTIONS,
    );
  } catch (err) {
    // The member got this plan another way meanwhile: nothing is written, the checkout stays open.
    if (isUniqueViolation(err, LIVE_INDEX)) return failure(CHECKOUT_ALREADY_MEMBER);
    // The same for a course or a download (or it no longer exists): all of it rolled back.
    if (err instanceof CheckoutRefused) return failure(err.reason);
    throw err;
  }
  if (outcome.chargeFirst && outcome.checkout.subscriptionId) await chargeNow({ subscriptionId: outcome.checkout.subscriptionId, now });
  return success(await completed(outcome.checkout));
}

async function completed(checkout: CheckoutSession): Promise<CompletedCheckout> {
  const subscription = checkout.subscriptionId
    ? await db().subscription.findUnique({ where: { id: checkout.subscriptionId }, include: subscriptionInclude })
    : null;
  const payment = checkout.paymentId ? await db().payment.findUnique({ where: { id: checkout.paymentId } }) : null;
  return { checkout, subscription, payment };
}

async function complete(
  tx: Tx,
  options: { checkoutId: string; hosted: { paymentMethodId: string; providerPaymentId: string | null }; now: Date },
): Promise<{ checkout: CheckoutSession; chargeFirst: boolean }> {
  const { checkoutId, hosted, now } = options;
  // The row lock orders concurrent completers: the second finds it complete and writes nothing.
  await tx.$queryRaw`SELECT 1 FROM "CheckoutSession" WHERE "id" = ${checkoutId}::uuid FOR UPDATE`;
  const checkout = await tx.checkoutSession.findUniqueOrThrow({ where: { id: checkoutId } });
  if (checkout.status !== "open") return { checkout, chargeFirst: false };
  const { schoolId } = checkout;
  const plan = await tx.membershipPlan.findUniqueOrThrow({ where: { id: checkout.planId! } });

  // A signed-in buyer may have no membership of this school yet: joining it is part of buying.
  const signedIn = checkout.userId ? await tx.user.findUnique({ where: { id: checkout.userId }, select: { email: true } }) : null;
  const member = await findOrCreateMember(tx, { schoolId, email: signedIn?.email ?? checkout.email, name: signedIn ? null : checkout.name, now });
  if ("error" in member) throw new Error(`checkout ${checkoutId}: ${member.error}`);
  const userId = member.user.id;
  const accountCreated = member.created;
  await settleDueSubscriptions({ tx, schoolId, userId, planId: plan.id, now });

  const periods = checkoutPeriods(plan, now, checkout.trialDays);
  const paid = hosted.providerPaymentId !== null;
  const state = checkout.trialDays ? "trialing" : paid ? "active" : "incomplete";
  const created = await tx.subscription.create({
    data: {
      schoolId,
      userId,
      planId: plan.id,
      state,
      ...periods,
      ...(state === "incomplete" ? { nextChargeDate: now } : {}),
      collectionMethod: "charge_automatically",
      paymentMethodId: hosted.paymentMethodId,
      createdAt: now,
      updatedAt: now,
    },
    include: subscriptionInclude,
  });
  const events: OutboxEvent[] = [{ schoolId, type: "subscription.created", subjectId: created.id, data: presentSubscription(created) }];
  if (paid && state === "active") {
    // The charge the hosted page made pays the first period (Stripe Checkout's first invoice).
    const payment = await tx.payment.create({
      data: {
        schoolId,
        subscriptionId: created.id,
        periodStart: periods.currentPeriodStart,
        periodEnd: periods.currentPeriodEnd,
        billingReason: "subscription_create",
        ...paidAtCheckout(checkout, hosted, now),
      },
    });
    events.push({ schoolId, type: "payment.succeeded", subjectId: payment.id, data: presentPayment(payment) });
  }
  await recordEvents(tx, { events, now });
  // The buyer made this change (whoever reported the checkout complete: their browser or the provider).
  const buyer: AuditActor = { type: "member", id: userId, label: member.user.email, credentialId: null, requestId: null, ip: null };
  const summary = { checkoutId, planId: plan.id, state, amount: checkout.amount, currency: checkout.currency, accountCreated };
  await recordAudit(tx, { actor: buyer, now, entry: { schoolId, action: "subscription.create", target: { type: "subscription", id: created.id }, summary } });
  await enqueueBillingMails(tx, { events, now });
  const done = await tx.checkoutSession.update({
    where: { id: checkoutId },
    data: { status: "complete", completedAt: now, subscriptionId: created.id, userId, accountCreated },
  });
  return { checkout: done, chargeFirst: state === "incomplete" };
}

/**
 * A course or a download bought once: in the caller's transaction, with the checkout row locked,
 * the account when new, the one-time payment the hosted page collected (`one_time`, no
 * subscription, no period; its name kept as the receipt shows it), the enrollment or the
 * download's access, `enrollment.created` (a course) and `payment.succeeded`, the audit rows, the
 * receipt mail, and the checkout complete. A member who has the item already (bought meanwhile in
 * another tab, enrolled by staff) or an item deleted since is refused by throwing: nothing stays.
 */
async function completeOneTime(
  tx: Tx,
  options: { checkoutId: string; ref: CheckoutItemRef; hosted: { paymentMethodId: string; providerPaymentId: string | null }; now: Date },
): Promise<{ checkout: CheckoutSession; chargeFirst: boolean }> {
  const { checkoutId, ref, hosted, now } = options;
  await tx.$queryRaw`SELECT 1 FROM "CheckoutSession" WHERE "id" = ${checkoutId}::uuid FOR UPDATE`;
  const checkout = await tx.checkoutSession.findUniqueOrThrow({ where: { id: checkoutId } });
  if (checkout.status !== "open") return { checkout, chargeFirst: false };
  const { schoolId } = checkout;
  const words = checkoutMessages(ref.kind);
  // Paid at the price copied when it started, whatever the content says now; only an item that is gone cannot be given.
  const item = await findCheckoutItem(tx, { schoolId, ref, now });
  if (!item) throw new CheckoutRefused(words.notFound);

  const signedIn = checkout.userId ? await tx.user.findUnique({ where: { id: checkout.userId }, select: { email: true } }) : null;
  const member = await findOrCreateMember(tx, { schoolId, email: signedIn?.email ?? checkout.email, name: signedIn ? null : checkout.name, now });
  if ("error" in member) throw new Error(`checkout ${checkoutId}: ${member.error}`);
  const user = member.user;
  if (await ownsItem(tx, { userId: user.id, item, now })) throw new CheckoutRefused(words.owned);

  const payment = await tx.payment.create({
    data: {
      schoolId,
      subscriptionId: null,
      userId: user.id,
      courseId: ref.kind === "course" ? item.id : null,
      downloadId: ref.kind === "download" ? item.id : null,
      description: item.name,
      billingReason: "one_time",
      ...paidAtCheckout(checkout, hosted, now),
    },
  });
  // The buyer made this change (whoever reported the checkout complete: their browser or the provider).
  const buyer: AuditActor = { type: "member", id: user.id, label: user.email, credentialId: null, requestId: null, ip: null };
  const granted =
    ref.kind === "course"
      ? (await recordEnrollment(tx, { schoolId, courseId: item.id, user, memberCreated: member.created, actor: buyer, now, auditSummary: { checkoutId, paymentId: payment.id } })).created
      : (await recordDownloadAccess(tx, { schoolId, downloadId: item.id, user, paymentId: payment.id, actor: buyer, now })).created;
  // Enrolled or given access meanwhile by another transaction (the upsert found its row): refused, all rolled back.
  if (!granted) throw new CheckoutRefused(words.owned);
  const events: OutboxEvent[] = [{ schoolId, type: "payment.succeeded", subjectId: payment.id, data: presentPayment(payment) }];
  await recordEvents(tx, { events, now });
  await enqueueBillingMails(tx, { events, now });
  const done = await tx.checkoutSession.update({
    where: { id: checkoutId },
    data: { status: "complete", completedAt: now, paymentId: payment.id, userId: user.id, accountCreated: member.created },
  });
  return { checkout: done, chargeFirst: false };
}
