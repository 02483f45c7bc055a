// One Stripe SDK client per secret key, and the SDK's errors in billing's terms. The SDK retries a
// request that met a network error or a 5xx with the same idempotency key (maxNetworkRetries), so
// a retry is never a second charge; what still fails is "the outcome is unknown" to billing.
import Stripe from "stripe";
import { ProviderUnavailableError } from "./provider";

export interface StripeApiAddress {
  host: string;
  port: number;
  protocol: "http" | "https";
}

const settings: { api: StripeApiAddress | null; timeoutMs: number; maxNetworkRetries: number } = { api: null, timeoutMs: 20_000, maxNetworkRetries: 2 };
const clients = new Map<string, Stripe>();

/**
 * Test hook: every client talks to this address (the tests' Stripe emulator) instead of
 * api.stripe.com, with this time-out and number of SDK retries. null: Stripe itself.
 */
export function useStripeApi(api: StripeApiAddress | null, options: { timeoutMs?: number; maxNetworkRetries?: number } = {}): void {
  settings.api = api;
  settings.timeoutMs = options.timeoutMs ?? 20_000;
  settings.maxNetworkRetries = options.maxNetworkRetries ?? 2;
  clients.clear();
}

/** The SDK client of one Stripe account (its secret key), made once per process. */
export function stripeClient(secretKey: string): Stripe {
  let client = clients.get(secretKey);
  if (!client) {
    client = new Stripe(secretKey, {
      timeout: settings.timeoutMs,
      maxNetworkRetries: settings.maxNetworkRetries,
      appInfo: { name: "Schoolhouse" },
      ...(settings.api ?? {}),
    });
    clients.set(secretKey, client);
  }
  return client;
}

/**
 * Whether a string has the shape of a Stripe object id (letters, digits and underscores), the only
 * kind put in a request path to Stripe. Anything else names no Stripe object and would read another
 * URL: "" is `/v1/payment_methods/` (Stripe's "Unrecognized request URL"), "." and ".." other paths.
 */
export const isStripeId = (id: unknown): id is string => typeof id === "string" && /^\w{1,255}$/.test(id);

/**
 * Errors after which Stripe may or may not have acted (network, time-out, 5xx, rate limit, a lock
 * held by a concurrent request), or that no member caused (the school's key refused): the payment
 * stays pending and is reconciled later, and the member is not marked past due for the school's
 * configuration. The key is never part of the message.
 */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError || err instanceof Stripe.errors.StripeRateLimitError) return true;
  if (err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError) return true;
  if (err instanceof Stripe.errors.StripeError) return (err.statusCode ?? 0) >= 500 || err.statusCode === 429 || err.code === "lock_timeout";
  return false;
}

/**
 * Rethrows err as ProviderUnavailableError when the outcome is unknown, and as it is when it is no
 * Stripe answer about the request (a key reused with other parameters is our bug, as the test
 * provider's IdempotencyKeyReusedError); returns the Stripe error otherwise.
 */
export function unavailableOr(err: unknown): Stripe.errors.StripeError {
  if (err instanceof Stripe.errors.StripeIdempotencyError || !(err instanceof Stripe.errors.StripeError)) throw err;
  if (!isUnavailable(err)) return err;
  const kind = err instanceof Stripe.errors.StripeError ? err.type : "error";
  const reason =
    err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError
      ? "Stripe refused the school's secret key"
      : `Stripe did not answer (${kind})`;
  throw new ProviderUnavailableError(reason);
}

// Stripe's amounts are integers in the currency's minor unit (docs.stripe.com/currencies).
const ZERO_DECIMAL = new Set(["BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"]);
const THREE_DECIMAL = new Set(["BHD", "JOD", "KWD", "OMR", "TND"]);

const exponentOf = (currency: string) => (ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : THREE_DECIMAL.has(currency.toUpperCase()) ? 3 : 2);

/** "29.00" USD → 2900; "500" JPY → 500; "1.25" KWD → 1250. */
export function toMinorUnits(amount: string, currency: string): number {
  const [whole, fraction = ""] = amount.split(".");
  const exponent = exponentOf(currency);
  const digits = `${whole}${fraction.padEnd(exponent, "0").slice(0, exponent)}`;
  const minor = Number(digits);
  // A zero-decimal currency's cents cannot be charged: rounded to the unit, as Stripe's dashboard does.
  return exponent === 0 && fraction && Number(fraction) > 0 ? Math.round(Number(amount)) : minor;
}

/** 2900 USD → "29.00"; 500 JPY → "500.00" (our amounts keep two decimals). */
export function fromMinorUnits(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  return (minor / 10 ** exponent).toFixed(2);
}
