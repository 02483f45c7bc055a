import { randomUUID } from "node:crypto";
import { systemActor } from "../db/audit";
import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { TX_OPTIONS } from "../db/write-transaction";
import { recordRefund, refundKeyOf } from "./refund-payment";

/** Refunds made in Stripe's dashboard reach us by its webhook: no person of ours made them. */
const STRIPE_ACTOR = systemActor("stripe-webhook");

export interface ProviderRefund {
  providerRefundId: string;
  /** Decimal string in the payment's currency. */
  amount: string;
  /** Ours when refundPayment asked for it (its PaymentRefund's key), null for one made in the provider's dashboard. */
  idempotencyKey: string | null;
}

/**
 * Records the refunds made in the provider's dashboard (Stripe's charge.refunded, re-read from
 * Stripe): each becomes a succeeded PaymentRefund of its own, once (by its provider id), with the
 * payment's refundedAmount and state and payment.refunded, in one transaction per refund with the
 * payment locked. Refunds refundPayment asked for (they carry its idempotency key) are left to it:
 * one still pending after a time-out is finished by the staff's retry with the same amount, which
 * the time-out's answer asks for, so that retry is never a second refund. Returns how many were new.
 */
export async function recordProviderRefunds(options: { schoolId: string; providerPaymentId: string; refunds: readonly ProviderRefund[]; now: Date }): Promise<number> {
  const { schoolId, providerPaymentId, now } = options;
  let recorded = 0;
  for (const r of options.refunds) {
    const added = await db().$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<{ id: string }[]>`
        SELECT "id"::text FROM "Payment" WHERE "schoolId" = ${schoolId}::uuid AND "providerPaymentId" = ${providerPaymentId} AND "provider" = 'stripe' FOR UPDATE`;
      if (!locked) return false;
      if (await tx.paymentRefund.findFirst({ where: { paymentId: locked.id, providerRefundId: r.providerRefundId } })) return false;
      const payment = await tx.payment.findUniqueOrThrow({ where: { id: locked.id } });
      const amount = new Prisma.Decimal(r.amount);
      // One of ours is finished by refundPayment's retry, as its answer promised (same row, same key).
      const ours = r.idempotencyKey ? await tx.paymentRefund.findFirst({ where: { paymentId: payment.id, idempotencyKey: r.idempotencyKey } }) : null;
      if (ours || payment.refundedAmount.plus(amount).greaterThan(payment.amount)) return false;
      const id = randomUUID();
      const refund = await tx.paymentRefund.create({
        data: { id, schoolId, paymentId: payment.id, amount, state: "succeeded", idempotencyKey: refundKeyOf(id), providerRefundId: r.providerRefundId, createdAt: now, updatedAt: now },
      });
      await recordRefund(tx, { refund, providerRefundId: r.providerRefundId, now, recorded: true, actor: STRIPE_ACTOR });
      return true;
    }, TX_OPTIONS);
    if (added) recorded += 1;
  }
  return recorded;
}
