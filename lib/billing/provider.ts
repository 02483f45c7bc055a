// The payment provider port: what billing asks of any provider (the test provider, Stripe), in the
// terms of Stripe's API: a saved payment method, a charge sent with an idempotency key, the charge
// found again by that key, refunds, and the provider's hosted checkout page.

export type ChargeResult =
  | { status: "succeeded"; providerPaymentId: string }
  | { status: "failed"; providerPaymentId: string; failureCode: string; failureMessage: string };

export interface ChargeRequest {
  /** The same key is the same charge: a repeated request returns the first answer, never a second charge. */
  idempotencyKey: string;
  /** Decimal string, e.g. "29.00". */
  amount: string;
  currency: string;
  paymentMethodId: string;
  /** true for renewals and retries (the member is not present), false at purchase. */
  offSession: boolean;
}

export type AttachResult = { ok: true; paymentMethodId: string } | { ok: false; failureCode: string; failureMessage: string };

export type RefundResult = { status: "succeeded"; providerRefundId: string } | { status: "failed"; failureCode: string; failureMessage: string };

export interface RefundRequest {
  /** The same key is the same refund: a repeated request returns the first answer, never a second refund. */
  idempotencyKey: string;
  /** The provider's id of the charge refunded (Payment.providerPaymentId). */
  providerPaymentId: string;
  /** Decimal string, e.g. "10.00": at most what is not yet refunded of the charge. */
  amount: string;
  currency: string;
}

export interface HostedCheckoutRequest {
  /** Our CheckoutSession id; the provider echoes it back (Stripe: client_reference_id). */
  checkoutId: string;
  /** Decimal string, e.g. "29.00"; "0.00" for a trial that only saves the card. */
  amount: string;
  currency: string;
  description: string;
  customerEmail: string | null;
  /**
   * true: the payment method is saved for later off-session charges (a plan's renewals; Stripe:
   * `payment_intent_data.setup_future_usage: off_session`, or setup mode for "0.00"); false: a
   * one-time purchase (a course, a download) is paid once and nothing is kept for later.
   */
  savePaymentMethod: boolean;
  successUrl: string;
  cancelUrl: string;
}
export type HostedCheckoutStatus =
  | { status: "open" }
  | { status: "expired" }
  | { status: "complete"; paymentMethodId: string; providerPaymentId: string | null };

export interface PaymentProviderPort {
  readonly name: "test" | "stripe";
  /** Checks and saves a payment method (a test card number or a provider reference) for later charges. */
  attachPaymentMethod(options: { paymentMethod: string }): Promise<AttachResult>;
  /** Charges once per idempotency key. Throws ProviderUnavailableError when the outcome is unknown. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The charge made with this key, or null when the provider never made one (reconciliation). */
  findCharge(options: { idempotencyKey: string }): Promise<ChargeResult | null>;
  /** Refunds (part of) a charge once per idempotency key. Throws ProviderUnavailableError when the outcome is unknown. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Starts the provider's hosted checkout page; the member is sent to url. */
  createHostedCheckout(request: HostedCheckoutRequest): Promise<{ url: string; providerSessionId: string }>;
  /** Where that checkout stands, read from the provider (never from the browser's return). */
  getHostedCheckout(options: { providerSessionId: string }): Promise<HostedCheckoutStatus>;
}

/**
 * The provider did not answer (time-out, network, 5xx): the charge may or may not have happened.
 * The payment stays pending and is reconciled with findCharge before anything else is tried.
 */
export class ProviderUnavailableError extends Error {
  constructor(message = "The payment provider did not answer") {
    super(message);
    this.name = "ProviderUnavailableError";
  }
}
