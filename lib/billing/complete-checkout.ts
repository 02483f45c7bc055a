import { isUuid } from "../core/ids";
import { db } from "../db/client";
import type { CheckoutSession, PaymentProvider, Prisma } from "../db/generated/client";
import { recordEvents, type OutboxEvent } from "../db/outbox";
import { failure, isUniqueViolation, success, TX_OPTIONS, type Payload } from "../db/write-transaction";
import { enqueueBillingMails } from "../mail/billing-mails";
import { presentPayment, presentSubscription } from "../membership/presenter";
import { subscriptionInclude, type SubscriptionRecord } from "../membership/record-types";
import { settleDueSubscriptions } from "../membership/settle";
import { findOrCreateMember } from "../membership/users";
import { chargeNow } from "./charge-now";
import { CHECKOUT_ALREADY_MEMBER, CHECKOUT_EXPIRED, CHECKOUT_NOT_FOUND, CHECKOUT_NOT_PAID, checkoutPeriods } from "./checkout-rules";
import { providerOfPayment } from "./provider-for";

type Tx = Prisma.TransactionClient;

export interface CompletedCheckout {
  checkout: CheckoutSession;
  subscription: SubscriptionRecord | null;
}

const LIVE_INDEX = "Subscription_live_user_plan_key";

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

  let outcome: { checkout: CheckoutSession; chargeFirst: boolean };
  try {
    outcome = await db().$transaction(async (tx) => complete(tx, { checkoutId: found.id, hosted, now }), TX_OPTIONS);
  } catch (err) {
    // The member got this plan another way meanwhile: nothing is written, the checkout stays open.
    if (isUniqueViolation(err, LIVE_INDEX)) return failure(CHECKOUT_ALREADY_MEMBER);
    throw err;
  }
  if (outcome.chargeFirst && outcome.checkout.subscriptionId) await chargeNow({ subscriptionId: outcome.checkout.subscriptionId, now });
  return success(await completed(outcome.checkout));
}

async function completed(checkout: CheckoutSession): Promise<CompletedCheckout> {
  const subscription = checkout.subscriptionId
    ? await db().subscription.findUnique({ where: { id: checkout.subscriptionId }, include: subscriptionInclude })
    : null;
  return { checkout, subscription };
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
  const plan = await tx.membershipPlan.findUniqueOrThrow({ where: { id: checkout.planId } });

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
        amount: checkout.amount,
        currency: checkout.currency,
        state: "succeeded",
        paidAt: now,
        periodStart: periods.currentPeriodStart,
        periodEnd: periods.currentPeriodEnd,
        billingReason: "subscription_create",
        provider: checkout.provider as PaymentProvider,
        providerPaymentId: hosted.providerPaymentId,
        paymentMethodId: hosted.paymentMethodId,
        idempotencyKey: `checkout_${checkout.id}`,
        attempt: 1,
        createdAt: now,
        updatedAt: now,
      },
    });
    events.push({ schoolId, type: "payment.succeeded", subjectId: payment.id, data: presentPayment(payment) });
  }
  await recordEvents(tx, { events, now });
  await enqueueBillingMails(tx, { events, now });
  const done = await tx.checkoutSession.update({
    where: { id: checkoutId },
    data: { status: "complete", completedAt: now, subscriptionId: created.id, userId, accountCreated },
  });
  return { checkout: done, chargeFirst: state === "incomplete" };
}
