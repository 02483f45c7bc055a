// The test provider's hosted checkout (Stripe Checkout's part in the test provider): the provider's
// record of each checkout it hosts (TestProviderCheckout), the page's pay step, and the two port
// methods. The page itself is test-checkout-page.ts; it is served on the school's own origin.
import { randomBytes } from "node:crypto";
import { now as clockNow } from "../clock";
import { db } from "../db/client";
import { rawQuery } from "../db/raw";
import { Prisma } from "../db/generated/client";
import type { HostedCheckoutRequest, HostedCheckoutStatus } from "./provider";

/** Where the test provider's hosted page lives on the school's origin. */
export const TEST_CHECKOUT_PATH = "/checkout/test";
/** A hosted checkout is open this long (Stripe's default for Checkout Sessions). */
export const HOSTED_CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

export const isTestCheckoutId = (id: string) => /^cs_test_[0-9a-f]{24}$/.test(id);

export async function createTestHostedCheckout(request: HostedCheckoutRequest): Promise<{ url: string; providerSessionId: string }> {
  const now = clockNow();
  const id = `cs_test_${randomBytes(12).toString("hex")}`;
  // One named raw insert: it is on every checkout's start (docs/benchmarks.md, "Checkout").
  await rawQuery(
    `INSERT INTO "TestProviderCheckout" ("id", "checkoutId", "amount", "currency", "description", "customerEmail", "successUrl", "cancelUrl", "expiresAt", "createdAt")
     VALUES ($1, $2, $3::numeric, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      request.checkoutId,
      new Prisma.Decimal(request.amount).toString(),
      request.currency,
      request.description,
      request.customerEmail ?? null,
      request.successUrl,
      request.cancelUrl,
      new Date(now.getTime() + HOSTED_CHECKOUT_TTL_MS),
      now,
    ],
    { name: "test-provider-checkout" },
  );
  // The page is on the origin the member comes back to: the school's own.
  return { url: `${new URL(request.successUrl).origin}${TEST_CHECKOUT_PATH}/${id}`, providerSessionId: id };
}

export async function getTestHostedCheckout({ providerSessionId }: { providerSessionId: string }): Promise<HostedCheckoutStatus> {
  const row = await db().testProviderCheckout.findUnique({ where: { id: providerSessionId } });
  if (!row) return { status: "expired" };
  if (row.status === "complete" && row.paymentMethodId) return { status: "complete", paymentMethodId: row.paymentMethodId, providerPaymentId: row.chargeId };
  if (row.status === "expired" || (row.status !== "complete" && row.expiresAt <= clockNow())) return { status: "expired" };
  return { status: "open" };
}

export type TestCheckoutRow = Prisma.TestProviderCheckoutGetPayload<object>;

export async function findTestCheckout(id: string): Promise<TestCheckoutRow | null> {
  if (!isTestCheckoutId(id)) return null;
  return db().testProviderCheckout.findUnique({ where: { id } });
}

export type PayOutcome =
  | { kind: "paid"; successUrl: string }
  | { kind: "declined"; message: string }
  | { kind: "closed"; status: "complete" | "expired" | "processing"; successUrl: string; cancelUrl: string }
  | { kind: "not_found" };

/**
 * The hosted page's pay step: one attempt at a time per checkout (status `processing` while the
 * card is charged), each attempt its own idempotency key, so a double submit charges once. A
 * declined card leaves the checkout open with the card's message; a paid one completes it. A free
 * trial ("0.00") only saves the card, refusing the cards Stripe declines when they are saved.
 */
export async function payTestCheckout(options: {
  id: string;
  card: string;
  charge: (request: { idempotencyKey: string; amount: string; currency: string; paymentMethodId: string }) => Promise<
    { status: "succeeded"; providerPaymentId: string } | { status: "failed"; failureMessage: string }
  >;
  attach: (card: string) => Promise<{ ok: true; paymentMethodId: string; declinesOnSession: boolean } | { ok: false; failureMessage: string }>;
}): Promise<PayOutcome> {
  const now = clockNow();
  const row = await findTestCheckout(options.id);
  if (!row) return { kind: "not_found" };
  if (row.status !== "complete" && row.expiresAt <= now) {
    await db().testProviderCheckout.updateMany({ where: { id: row.id, status: "open" }, data: { status: "expired" } });
    return { kind: "closed", status: "expired", successUrl: row.successUrl, cancelUrl: row.cancelUrl };
  }
  // Claim the page for this attempt: a second submit meanwhile finds it processing.
  const claimed = await db().$queryRaw<{ attempts: number }[]>`
    UPDATE "TestProviderCheckout" SET "status" = 'processing', "attempts" = "attempts" + 1
    WHERE "id" = ${row.id} AND "status" = 'open'
    RETURNING "attempts"`;
  if (!claimed.length) {
    const status = row.status === "complete" ? "complete" : row.status === "expired" ? "expired" : "processing";
    return { kind: "closed", status, successUrl: row.successUrl, cancelUrl: row.cancelUrl };
  }
  const reopen = async (message: string): Promise<PayOutcome> => {
    await db().testProviderCheckout.updateMany({ where: { id: row.id, status: "processing" }, data: { status: "open" } });
    return { kind: "declined", message };
  };
  try {
    const attached = await options.attach(options.card);
    if (!attached.ok) return await reopen(attached.failureMessage);
    let chargeId: string | null = null;
    if (row.amount.isZero()) {
      if (attached.declinesOnSession) return await reopen("Your card was declined.");
    } else {
      const result = await options.charge({
        idempotencyKey: `${row.id}_attempt_${claimed[0]!.attempts}`,
        amount: row.amount.toFixed(2),
        currency: row.currency,
        paymentMethodId: attached.paymentMethodId,
      });
      if (result.status === "failed") return await reopen(result.failureMessage);
      chargeId = result.providerPaymentId;
    }
    await db().testProviderCheckout.update({ where: { id: row.id }, data: { status: "complete", paymentMethodId: attached.paymentMethodId, chargeId } });
    return { kind: "paid", successUrl: row.successUrl };
  } catch (err) {
    await db().testProviderCheckout.updateMany({ where: { id: row.id, status: "processing" }, data: { status: "open" } });
    throw err;
  }
}
