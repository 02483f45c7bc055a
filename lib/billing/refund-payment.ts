import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { Prisma, type Payment, type PaymentRefund } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { recordEvent } from "../db/outbox";
import { recordAudit, type AuditActor } from "../db/audit";
import { enqueueBillingMails } from "../mail/billing-mails";
import { failure, success, TX_OPTIONS, writeTransaction, type Payload } from "../db/write-transaction";
import { presentPayment } from "../membership/presenter";
import { ProviderUnavailableError } from "./provider";
import { providerOfPayment } from "./provider-for";

type Tx = Prisma.TransactionClient;

export interface RefundPaymentInput {
  paymentId: string;
  /** Decimal string ("10.00"); omitted: all that is not yet refunded. */
  amount?: string | null;
}

export const PAYMENT_NOT_FOUND = "Payment not found";
export const NOT_REFUNDABLE = "Only succeeded payments can be refunded";
export const ALREADY_REFUNDED = "Payment is already fully refunded";
export const INVALID_AMOUNT = "amount must be a decimal with at most 2 decimals, more than 0";
export const REFUND_IN_PROGRESS = "A refund of this payment is in progress with another amount; retry that refund first";
export const PROVIDER_NO_ANSWER = "The payment provider did not answer; retry the refund with the same amount (it is never made twice)";
export const amountTooLarge = (remaining: string) => `amount must be at most ${remaining}, what is not yet refunded`;

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

/** The provider's idempotency key of one refund: the pending row's, so a retry resuming it is the same refund. */
export const refundKeyOf = (refundId: string) => `refund_${refundId}`;

type Opened = { kind: "done"; payload: Payload<Payment> } | { kind: "refund"; payment: Payment; refund: PaymentRefund };

/**
 * Refunds a succeeded payment, in full (no amount) or in part (Stripe's Refund). Rules, first failure
 * wins: not found → already fully refunded → not succeeded → amount not a positive decimal → more
 * than what remains → another refund of it in flight with another amount. A refund does not end the
 * subscription or its access (Stripe's rule): staff cancel it separately (docs/decisions.md,
 * "Billing", "Refunds").
 * 1. In a transaction with the payment locked: a pending PaymentRefund (the row that makes a retry
 *    the same refund). A payment collected outside Schoolhouse (provider external) is recorded at
 *    once: the school refunded it where it took it.
 * 2. The provider, outside any transaction, with the refund's idempotency key: a retried refund
 *    (after a time-out, a crash) resumes the pending row and sends the same key, never refunding twice.
 * 3. In a transaction: the refund's outcome, the payment's refundedAmount (state refunded when all
 *    of it is) and payment.refunded.
 */
export async function refundPayment(options: {
  schoolId: string;
  input: RefundPaymentInput;
  now: Date;
  dryRun?: boolean;
  /** Who asks: written to the audit log with the refund's outcome (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<Payment>> {
  const { schoolId, input, now, dryRun, actor } = options;
  if (!isUuid(input.paymentId)) return failure(PAYMENT_NOT_FOUND);
  const opened = await writeTransaction<Opened>({ dryRun }, async (tx) => success(await open(tx, { schoolId, input, now, dryRun: !!dryRun, actor })));
  const o = opened.record!;
  if (o.kind === "done") return o.payload;
  let result;
  try {
    const provider = await providerOfPayment({ schoolId, provider: o.payment.provider });
    result = await provider.refund({
      idempotencyKey: o.refund.idempotencyKey,
      providerPaymentId: o.payment.providerPaymentId ?? "",
      amount: o.refund.amount.toFixed(2),
      currency: o.payment.currency,
    });
  } catch (err) {
    if (err instanceof ProviderUnavailableError) return failure(PROVIDER_NO_ANSWER);
    throw err;
  }
  return db().$transaction(async (tx) => {
    if (result.status === "failed") {
      await tx.paymentRefund.updateMany({
        where: { id: o.refund.id, state: "pending" },
        data: { state: "failed", failureCode: result.failureCode, failureMessage: result.failureMessage, updatedAt: now },
      });
      return failure<Payment>(result.failureMessage);
    }
    return success(await recordRefund(tx, { refund: o.refund, providerRefundId: result.providerRefundId, now, actor }));
  }, TX_OPTIONS);
}

async function open(tx: Tx, options: { schoolId: string; input: RefundPaymentInput; now: Date; dryRun: boolean; actor: AuditActor }): Promise<Opened> {
  const { schoolId, input, now, dryRun, actor } = options;
  const done = (message: string): Opened => ({ kind: "done", payload: failure(message) });
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id"::text FROM "Payment" WHERE "id" = ${input.paymentId}::uuid AND "schoolId" = ${schoolId}::uuid FOR UPDATE`;
  if (!locked.length) return done(PAYMENT_NOT_FOUND);
  const payment = await tx.payment.findUniqueOrThrow({ where: { id: input.paymentId } });
  if (payment.state === "refunded") return done(ALREADY_REFUNDED);
  if (payment.state !== "succeeded") return done(NOT_REFUNDABLE);
  const remaining = payment.amount.minus(payment.refundedAmount);
  const raw = input.amount ?? null;
  if (raw !== null && (!AMOUNT.test(raw) || new Prisma.Decimal(raw).lessThanOrEqualTo(0))) return done(INVALID_AMOUNT);
  const amount = raw === null ? remaining : new Prisma.Decimal(raw);
  if (amount.greaterThan(remaining)) return done(amountTooLarge(remaining.toFixed(2)));

  const pending = await tx.paymentRefund.findFirst({ where: { paymentId: payment.id, state: "pending" } });
  if (pending && !pending.amount.equals(amount)) return done(REFUND_IN_PROGRESS);
  if (dryRun) {
    const refundedAmount = payment.refundedAmount.plus(amount);
    return { kind: "done", payload: success({ ...payment, refundedAmount, refundedAt: now, state: refundedAmount.equals(payment.amount) ? "refunded" : payment.state }) };
  }
  if (pending) return { kind: "refund", payment, refund: pending };
  const id = randomUUID();
  const external = payment.provider === "external";
  const refund = await tx.paymentRefund.create({
    data: { id, schoolId, paymentId: payment.id, amount, state: external ? "succeeded" : "pending", idempotencyKey: refundKeyOf(id), createdAt: now, updatedAt: now },
  });
  if (external) return { kind: "done", payload: success(await recordRefund(tx, { refund, providerRefundId: null, now, recorded: true, actor })) };
  return { kind: "refund", payment, refund };
}

/** The refund's success on our side, once: a second recorder (a concurrent retry) changes nothing. */
export async function recordRefund(tx: Tx, options: { refund: PaymentRefund; providerRefundId: string | null; now: Date; recorded?: boolean; actor: AuditActor }): Promise<Payment> {
  const { refund, providerRefundId, now } = options;
  if (!options.recorded) {
    const { count } = await tx.paymentRefund.updateMany({ where: { id: refund.id, state: "pending" }, data: { state: "succeeded", providerRefundId, updatedAt: now } });
    if (count === 0) return tx.payment.findUniqueOrThrow({ where: { id: refund.paymentId } });
  }
  await tx.$queryRaw`SELECT 1 FROM "Payment" WHERE "id" = ${refund.paymentId}::uuid FOR UPDATE`;
  const before = await tx.payment.findUniqueOrThrow({ where: { id: refund.paymentId } });
  const refundedAmount = before.refundedAmount.plus(refund.amount);
  const payment = await tx.payment.update({
    where: { id: before.id },
    data: { refundedAmount, refundedAt: now, state: refundedAmount.greaterThanOrEqualTo(before.amount) ? "refunded" : before.state, updatedAt: now },
  });
  const event = { schoolId: payment.schoolId, type: "payment.refunded", subjectId: payment.id, data: presentPayment(payment) } as const;
  await recordEvent(tx, { event, now });
  await enqueueBillingMails(tx, { events: [event], now });
  const summary = { refundId: refund.id, amount: refund.amount, refundedAmount: { from: before.refundedAmount, to: payment.refundedAmount }, state: { from: before.state, to: payment.state } };
  await recordAudit(tx, { actor: options.actor, now, entry: { schoolId: payment.schoolId, action: "payment.refund", target: { type: "payment", id: payment.id }, summary } });
  return payment;
}
