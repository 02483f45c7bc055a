// A school's Stripe account: its secret key and webhook signing secret, sealed (AES-256-GCM under a
// key derived from AUTH_SECRET, lib/credentials/sealed.ts) because the server must use them again;
// only a hint (prefix and last four characters) is ever shown (docs/security.md).
import { authSecret } from "../auth/auth-secret";
import { seal, unseal } from "../credentials/sealed";
import { recordAudit, type AuditActor } from "../db/audit";
import { db } from "../db/client";

const KEY_PURPOSE = "schoolhouse stripe secret keys v1";
const WEBHOOK_PURPOSE = "schoolhouse stripe webhook secrets v1";

export const INVALID_SECRET_KEY = "The Stripe secret key must be a secret or restricted key: sk_test_…, sk_live_…, rk_test_… or rk_live_…";
export const INVALID_WEBHOOK_SECRET = "The Stripe webhook signing secret must start with whsec_ (the endpoint's Signing secret in Stripe's dashboard)";

const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,250}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,250}$/;

export class StripeSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StripeSettingsError";
  }
}

/** `sk_test_…wxyz`: enough to tell two keys apart, nothing to use. */
export function maskSecret(secret: string): string {
  const prefix = secret.slice(0, secret.indexOf("_", secret.indexOf("_") + 1) + 1) || secret.slice(0, 6);
  return `${prefix}…${secret.slice(-4)}`;
}

export interface StripeAccount {
  secretKey: string;
  webhookSecret: string;
  livemode: boolean;
}

/**
 * Sets (or replaces) a school's Stripe account: from then on its new payments go through Stripe.
 * A live key (sk_live_/rk_live_) puts the school in live mode (no test clock); a test key keeps it
 * in test mode, on Stripe's test mode. Audited (school.set_stripe_account: the mode and the key's
 * masked hint, never a secret) in the same transaction.
 */
export async function setStripeAccount(options: { schoolId: string; secretKey: string; webhookSecret: string; now: Date; actor: AuditActor }) {
  const secretKey = options.secretKey.trim();
  const webhookSecret = options.webhookSecret.trim();
  if (!SECRET_KEY.test(secretKey)) throw new StripeSettingsError(INVALID_SECRET_KEY);
  if (!WEBHOOK_SECRET.test(webhookSecret)) throw new StripeSettingsError(INVALID_WEBHOOK_SECRET);
  const secret = authSecret();
  const data = {
    stripeSecretKey: seal(secretKey, { authSecret: secret, purpose: KEY_PURPOSE }),
    stripeSecretKeyHint: maskSecret(secretKey),
    stripeWebhookSecret: seal(webhookSecret, { authSecret: secret, purpose: WEBHOOK_PURPOSE }),
    stripeWebhookSecretHint: maskSecret(webhookSecret),
    livemode: secretKey.includes("_live_"),
  };
  return db().$transaction(async (tx) => {
    const before = await tx.schoolBilling.findUnique({ where: { schoolId: options.schoolId }, select: { livemode: true, stripeSecretKeyHint: true } });
    const saved = await tx.schoolBilling.upsert({ where: { schoolId: options.schoolId }, create: { schoolId: options.schoolId, ...data }, update: data });
    const summary = { livemode: { from: before?.livemode ?? false, to: data.livemode }, keyHint: { from: before?.stripeSecretKeyHint ?? null, to: data.stripeSecretKeyHint } };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: options.schoolId, action: "school.set_stripe_account", target: { type: "school", id: options.schoolId }, summary } });
    return saved;
  });
}

/**
 * Forgets a school's Stripe account: its new payments go through the test provider again (test
 * mode). Audited (school.remove_stripe_account) when there was one to forget.
 */
export async function removeStripeAccount(options: { schoolId: string; now: Date; actor: AuditActor }) {
  await db().$transaction(async (tx) => {
    const before = await tx.schoolBilling.findUnique({ where: { schoolId: options.schoolId }, select: { livemode: true, stripeSecretKeyHint: true } });
    // No account (no settings row, or one already forgotten): nothing to forget, nothing to record.
    if (!before?.stripeSecretKeyHint) return;
    await tx.schoolBilling.update({
      where: { schoolId: options.schoolId },
      data: { stripeSecretKey: null, stripeSecretKeyHint: null, stripeWebhookSecret: null, stripeWebhookSecretHint: null, livemode: false },
    });
    const summary = { livemode: { from: before.livemode, to: false }, keyHint: { from: before.stripeSecretKeyHint, to: null } };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: options.schoolId, action: "school.remove_stripe_account", target: { type: "school", id: options.schoolId }, summary } });
  });
}

/** The school's Stripe account, unsealed; null when it has none. */
export async function stripeAccountOf(options: { schoolId: string }): Promise<StripeAccount | null> {
  const row = await db().schoolBilling.findUnique({
    where: { schoolId: options.schoolId },
    select: { stripeSecretKey: true, stripeWebhookSecret: true, livemode: true },
  });
  return stripeAccountFromRow(row);
}

/** The account of a SchoolBilling row's sealed columns (read by stripeAccountOf, or in a caller's own statement). */
export function stripeAccountFromRow(row: { stripeSecretKey: string | null; stripeWebhookSecret: string | null; livemode: boolean | null } | null): StripeAccount | null {
  if (!row?.stripeSecretKey || !row.stripeWebhookSecret) return null;
  const secret = authSecret();
  return {
    secretKey: unseal(row.stripeSecretKey, { authSecret: secret, purpose: KEY_PURPOSE }),
    webhookSecret: unseal(row.stripeWebhookSecret, { authSecret: secret, purpose: WEBHOOK_PURPOSE }),
    livemode: row.livemode ?? false,
  };
}

/** What `npm run school -- stripe show` prints: the provider and the hints, never a secret. */
export async function describeStripeAccount(options: { schoolId: string }) {
  const row = await db().schoolBilling.findUnique({ where: { schoolId: options.schoolId } });
  return row?.stripeSecretKey
    ? { provider: "stripe" as const, livemode: row.livemode, secretKey: row.stripeSecretKeyHint, webhookSecret: row.stripeWebhookSecretHint }
    : { provider: "test" as const, livemode: false, secretKey: null, webhookSecret: null };
}
