// Which provider takes a school's payments (docs/decisions.md, "Billing", "Providers and test
// mode"): Stripe when the school has a Stripe account set, the test provider otherwise. A payment
// already sent is always finished (reconciled, refunded) by the provider recorded on it, even if
// the school has changed provider since.
import type { Prisma } from "../db/generated/client";
import { ProviderUnavailableError, type PaymentProviderPort } from "./provider";
import { stripeAccountOf, type StripeAccount } from "./stripe-settings";
import { createStripeProvider } from "./stripe-provider";
import { testProvider } from "./test-provider";

/** The provider of a school's new payments. */
export async function providerFor(options: { schoolId: string }): Promise<PaymentProviderPort> {
  return providerOfAccount(await stripeAccountOf(options));
}

/** The provider of a school whose Stripe account (or none) the caller has read. */
export const providerOfAccount = (account: StripeAccount | null): PaymentProviderPort => (account ? createStripeProvider({ secretKey: account.secretKey }) : testProvider);

/**
 * The provider a payment or a checkout was sent to (its recorded provider name). A Stripe payment of
 * a school whose Stripe account was removed since stays pending (unknown outcome) until it is set again.
 */
export async function providerOfPayment(options: { schoolId: string; provider: string }): Promise<PaymentProviderPort> {
  if (options.provider !== "stripe") return testProvider;
  const account = await stripeAccountOf({ schoolId: options.schoolId });
  if (!account) throw new ProviderUnavailableError("The school's Stripe account is not set; its Stripe payments wait until it is");
  return createStripeProvider({ secretKey: account.secretKey });
}

/** The provider name a new payment is recorded with, read in the transaction that creates it. */
export async function providerNameFor(tx: Prisma.TransactionClient, options: { schoolId: string }): Promise<"stripe" | "test"> {
  const billing = await tx.schoolBilling.findUnique({ where: { schoolId: options.schoolId }, select: { stripeSecretKey: true } });
  return billing?.stripeSecretKey ? "stripe" : "test";
}
