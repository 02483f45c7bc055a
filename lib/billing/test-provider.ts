// The `test` payment provider: no money moves. Its cards are Stripe's test numbers and their
// PaymentMethod tokens, with the same outcomes; its ledger (TestProviderCharge) is kept apart from
// our Payment rows, as a real provider's records are, so retries and reconciliation find the first
// answer of a key, even from another process.
import { randomBytes } from "node:crypto";
import { db } from "../db/client";
import { timeOrderedId } from "../db/time-ordered-id";
import { rawQuery } from "../db/raw";
import { Prisma } from "../db/generated/client";
import {
  ProviderUnavailableError,
  type AttachResult,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProviderPort,
  type RefundRequest,
  type RefundResult,
} from "./provider";
import { createTestHostedCheckout, getTestHostedCheckout, payTestCheckout, type PayOutcome } from "./test-checkout";

interface TestCard {
  number: string;
  paymentMethodId: string;
  /** Outcome of a charge with the member present (purchase) and without (renewals, retries). */
  onSession: Decline | null;
  offSession: Decline | null;
}

interface Decline {
  code: string;
  message: string;
}

const DECLINED: Decline = { code: "generic_decline", message: "Your card was declined." };
const INSUFFICIENT: Decline = { code: "insufficient_funds", message: "Your card has insufficient funds." };

/** Stripe's numbering (docs.stripe.com/testing) and its pm_card_* tokens. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: "4242424242424242", paymentMethodId: "pm_card_visa", onSession: null, offSession: null },
  { number: "4000000000000002", paymentMethodId: "pm_card_chargeDeclined", onSession: DECLINED, offSession: DECLINED },
  { number: "4000000000009995", paymentMethodId: "pm_card_chargeDeclinedInsufficientFunds", onSession: INSUFFICIENT, offSession: INSUFFICIENT },
  // Attaches and pays at checkout; every later off-session charge fails.
  { number: "4000000000000341", paymentMethodId: "pm_card_chargeCustomerFail", onSession: null, offSession: DECLINED },
];

const byNumber = new Map(TEST_CARDS.map((c) => [c.number, c]));
const byMethod = new Map(TEST_CARDS.map((c) => [c.paymentMethodId, c]));

export const UNKNOWN_TEST_CARD: Decline = {
  code: "incorrect_number",
  message: "Use a test card: 4242424242424242 (succeeds), 4000000000000002 (declined), 4000000000009995 (insufficient funds), 4000000000000341 (fails after checkout).",
};

// Faults a test asks for, per process: the next N charges time out after the charge was made, or
// the next N calls fail before reaching the provider; only for keys with `keyPrefix` when set.
const faults = { timeoutsAfterCharge: 0, unavailable: 0, keyPrefix: "", delayAfterChargeMs: 0 };

/** Test hook: every charge waits this long after it is made before answering (a process can be killed meanwhile). */
export function simulateDelayAfterCharge(ms: number): void {
  faults.delayAfterChargeMs = ms;
}

/** Test hook: the next `count` charges (of `subscriptionId` only, when given) are made, then answer with a time-out. */
export function simulateTimeoutAfterCharge(count = 1, subscriptionId?: string): void {
  faults.timeoutsAfterCharge = count;
  faults.keyPrefix = subscriptionId ? `sub_${subscriptionId}_` : "";
}

/** Test hook: the next `count` provider calls (for `subscriptionId` only, when given) fail before reaching the provider. */
export function simulateProviderUnavailable(count = 1, subscriptionId?: string): void {
  faults.unavailable = count;
  faults.keyPrefix = subscriptionId ? `sub_${subscriptionId}_` : "";
}

/** Test hook: no faults. */
export function clearTestProviderFaults(): void {
  faults.timeoutsAfterCharge = 0;
  faults.unavailable = 0;
  faults.keyPrefix = "";
  faults.delayAfterChargeMs = 0;
}

const faultApplies = (key: string | null) => key === null || key.startsWith(faults.keyPrefix);

function refuseIfUnavailable(key: string | null = null): void {
  if (faults.unavailable > 0 && faultApplies(key)) {
    faults.unavailable -= 1;
    throw new ProviderUnavailableError("test provider: simulated outage");
  }
}

type LedgerRow = { id: string; status: string; failureCode: string | null; failureMessage: string | null; amount: Prisma.Decimal | string; currency: string; paymentMethodId: string };

const CHARGE_SQL = `
INSERT INTO "TestProviderCharge" ("id", "idempotencyKey", "paymentMethodId", "amount", "currency", "status", "failureCode", "failureMessage")
VALUES ($1::text, $2::text, $3::text, $4::numeric, $5::text, $6::text, $7::text, $8::text)
ON CONFLICT ("idempotencyKey") DO UPDATE SET "idempotencyKey" = EXCLUDED."idempotencyKey"
RETURNING "id", "status", "failureCode", "failureMessage", "amount"::text AS "amount", "currency"::text AS "currency", "paymentMethodId"`;

function resultOf(row: LedgerRow): ChargeResult {
  return row.status === "succeeded"
    ? { status: "succeeded", providerPaymentId: row.id }
    : { status: "failed", providerPaymentId: row.id, failureCode: row.failureCode ?? "card_declined", failureMessage: row.failureMessage ?? "" };
}

/** A reused key with other parameters is refused, as Stripe refuses it (idempotency_key_in_use). */
export class IdempotencyKeyReusedError extends Error {
  constructor(key: string) {
    super(`test provider: idempotency key ${key} was used with other parameters`);
    this.name = "IdempotencyKeyReusedError";
  }
}

export const testProvider: PaymentProviderPort = {
  name: "test",

  async attachPaymentMethod({ paymentMethod }): Promise<AttachResult> {
    refuseIfUnavailable();
    const card = byNumber.get(paymentMethod.replace(/[\s-]/g, "")) ?? byMethod.get(paymentMethod);
    if (!card) return { ok: false, failureCode: UNKNOWN_TEST_CARD.code, failureMessage: UNKNOWN_TEST_CARD.message };
    return { ok: true, paymentMethodId: card.paymentMethodId };
  },

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    refuseIfUnavailable(request.idempotencyKey);
    // Decided when the call is made, so concurrent charges take armed faults in the order they were sent.
    const timesOut = faults.timeoutsAfterCharge > 0 && faultApplies(request.idempotencyKey);
    if (timesOut) faults.timeoutsAfterCharge -= 1;
    const card = byMethod.get(request.paymentMethodId);
    const decline = !card ? UNKNOWN_TEST_CARD : request.offSession ? card.offSession : card.onSession;
    // Time-ordered, as our own payments' ids (docs/decisions.md, "Time-ordered ids"): a renewal run
    // inserts one per renewal, at the primary key's right edge instead of a random page.
    const id = `pi_test_${timeOrderedId().replace(/-/g, "")}`;
    // One row per key, whoever inserts first; the others read the first answer (the no-op update
    // returns the row that holds the key): one prepared statement either way, a renewal run sends
    // one per renewal.
    const [row] = await rawQuery<LedgerRow>(CHARGE_SQL, [
      id,
      request.idempotencyKey,
      request.paymentMethodId,
      request.amount,
      request.currency,
      decline ? "failed" : "succeeded",
      decline?.code ?? null,
      decline?.message ?? null,
    ], { name: "test_provider_charge" });
    if (!row) throw new Error(`test provider: no ledger row for ${request.idempotencyKey}`);
    if (!new Prisma.Decimal(row.amount).equals(new Prisma.Decimal(request.amount)) || row.currency !== request.currency || row.paymentMethodId !== request.paymentMethodId) {
      throw new IdempotencyKeyReusedError(request.idempotencyKey);
    }
    if (faults.delayAfterChargeMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.delayAfterChargeMs));
    if (timesOut) throw new ProviderUnavailableError("test provider: simulated time-out after the charge");
    return resultOf(row);
  },

  async findCharge({ idempotencyKey }): Promise<ChargeResult | null> {
    refuseIfUnavailable(idempotencyKey);
    const row = await db().testProviderCharge.findUnique({ where: { idempotencyKey } });
    return row ? resultOf(row) : null;
  },

  async refund(request: RefundRequest): Promise<RefundResult> {
    refuseIfUnavailable(request.idempotencyKey);
    const amount = new Prisma.Decimal(request.amount);
    const outcome = await db().$transaction(async (tx): Promise<RefundResult> => {
      // The charge row lock orders refunds of one charge: their total never passes its amount.
      const [charge] = await tx.$queryRaw<{ amount: Prisma.Decimal; currency: string; status: string }[]>`
        SELECT "amount", "currency", "status" FROM "TestProviderCharge" WHERE "id" = ${request.providerPaymentId} FOR UPDATE`;
      const existing = await tx.testProviderRefund.findUnique({ where: { idempotencyKey: request.idempotencyKey } });
      if (existing) {
        if (!existing.amount.equals(amount) || existing.chargeId !== request.providerPaymentId) throw new IdempotencyKeyReusedError(request.idempotencyKey);
        return { status: "succeeded", providerRefundId: existing.id };
      }
      if (!charge || charge.status !== "succeeded") return { status: "failed", failureCode: "charge_not_refundable", failureMessage: "This charge was not paid, so it cannot be refunded." };
      const refunded = await tx.testProviderRefund.aggregate({ where: { chargeId: request.providerPaymentId }, _sum: { amount: true } });
      if ((refunded._sum.amount ?? new Prisma.Decimal(0)).plus(amount).greaterThan(charge.amount)) {
        return { status: "failed", failureCode: "charge_already_refunded", failureMessage: "The refund is more than what is left of the charge." };
      }
      const id = `re_test_${randomBytes(12).toString("hex")}`;
      await tx.testProviderRefund.create({ data: { id, idempotencyKey: request.idempotencyKey, chargeId: request.providerPaymentId, amount, currency: request.currency } });
      return { status: "succeeded", providerRefundId: id };
    });
    if (faults.timeoutsAfterCharge > 0 && faultApplies(request.idempotencyKey)) {
      faults.timeoutsAfterCharge -= 1;
      throw new ProviderUnavailableError("test provider: simulated time-out after the refund");
    }
    return outcome;
  },

  createHostedCheckout: createTestHostedCheckout,
  getHostedCheckout: getTestHostedCheckout,
};

/** The test provider's hosted page paying its checkout with the card typed there (test-checkout-page.ts). */
export function payTestHostedCheckout(options: { id: string; card: string }): Promise<PayOutcome> {
  return payTestCheckout({
    ...options,
    attach: async (number) => {
      const card = byNumber.get(number.replace(/[\s-]/g, ""));
      if (!card) return { ok: false, failureMessage: UNKNOWN_TEST_CARD.message };
      return { ok: true, paymentMethodId: card.paymentMethodId, declinesOnSession: card.onSession !== null };
    },
    charge: async (request) => {
      const result = await testProvider.charge({ ...request, offSession: false });
      return result.status === "succeeded" ? result : { status: "failed", failureMessage: result.failureMessage };
    },
  });
}
