import { createHash, randomBytes } from "node:crypto";
import { db } from "../db/client";
import { failure, success, type Payload } from "../db/write-transaction";
import { INVALID_EMAIL, NAME_REQUIRED, memberName, normalizeEmail } from "../membership/users";
import { CHECKOUT_ALREADY_MEMBER, CHECKOUT_MEMBERS_ONLY, CHECKOUT_TTL_MS, hasLivePlan, mayBuy, sellablePlan, trialDaysOf } from "./checkout-rules";
import { providerFor } from "./provider-for";

export interface StartCheckoutInput {
  planId: string;
  /** A visitor's email and name (ignored when a member is signed in). */
  email?: string | null;
  name?: string | null;
}

export interface StartedCheckout {
  checkoutId: string;
  /** The provider's hosted page: send the member there. */
  url: string;
  /** Goes into the starting browser's cookie; only that browser is signed in when it comes back. */
  browserToken: string;
}

/** Where the member comes back to after paying (or giving up), on the school's own origin. */
export const checkoutReturnPath = (checkoutId: string) => `/checkout/complete/${checkoutId}`;
export const checkoutReviewPath = (planSlug: string) => `/checkout/plans/${planSlug}`;

export const hashBrowserToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Starts buying a plan: the price, currency and trial are copied from the plan as the content holds
 * it now (never from the request), for the signed-in member or a visitor's email; then the
 * provider's hosted checkout is opened. Refused, first failure wins, nothing written: a plan id that
 * is not this school's plan, a closed or free plan, a gated school's non-member, a bad email or a
 * missing name, a member who already has the plan live. The return and cancel URLs are built here
 * from the school's origin, never taken from the request.
 */
export async function startCheckout(options: {
  schoolId: string;
  input: StartCheckoutInput;
  /** The signed-in member (storefront session, OAuth token), or null for a visitor or an API key. */
  member: { userId: string } | null;
  /** scheme://host of the school (the request's origin). */
  origin: string;
  now: Date;
}): Promise<Payload<StartedCheckout>> {
  const { schoolId, input, member, origin, now } = options;
  const sellable = await sellablePlan(db(), { schoolId, planId: input.planId, now });
  if ("error" in sellable) return failure(sellable.error);
  const { plan } = sellable;

  let userId = member?.userId ?? null;
  let email: string;
  let name: string | null = null;
  if (member) {
    const user = await db().user.findUnique({ where: { id: member.userId }, select: { email: true } });
    if (!user) return failure(INVALID_EMAIL);
    email = user.email;
  } else {
    const normalized = normalizeEmail(input.email ?? "");
    if (!normalized) return failure(INVALID_EMAIL);
    email = normalized;
    const known = await db().user.findUnique({ where: { email }, select: { id: true } });
    userId = known?.id ?? null;
    name = memberName(input.name);
    if (!known && !name) return failure(NAME_REQUIRED);
  }
  if (!(await mayBuy(db(), { schoolId, userId }))) return failure(CHECKOUT_MEMBERS_ONLY);
  if (userId && (await hasLivePlan(db(), { userId, planId: plan.id, now }))) return failure(CHECKOUT_ALREADY_MEMBER);

  const trialDays = trialDaysOf(plan);
  const browserToken = randomBytes(24).toString("base64url");
  const provider = await providerFor({ schoolId });
  const checkout = await db().checkoutSession.create({
    data: {
      schoolId,
      planId: plan.id,
      amount: plan.price,
      currency: plan.currency,
      trialDays,
      userId: member ? member.userId : null,
      email,
      name,
      provider: provider.name,
      browserTokenHash: hashBrowserToken(browserToken),
      expiresAt: new Date(now.getTime() + CHECKOUT_TTL_MS),
      createdAt: now,
    },
  });
  try {
    const hosted = await provider.createHostedCheckout({
      checkoutId: checkout.id,
      // A trial only saves the card: the first charge is the trial's end (a renewal).
      amount: trialDays ? "0.00" : plan.price.toFixed(2),
      currency: plan.currency,
      description: trialDays ? `${plan.name}: ${trialDays}-day free trial, then ${plan.price.toFixed(2)} ${plan.currency}` : plan.name,
      customerEmail: email,
      successUrl: `${origin}${checkoutReturnPath(checkout.id)}`,
      cancelUrl: `${origin}${checkoutReviewPath(plan.slug)}?canceled=1`,
    });
    await db().checkoutSession.update({ where: { id: checkout.id }, data: { providerSessionId: hosted.providerSessionId } });
    return success({ checkoutId: checkout.id, url: hosted.url, browserToken });
  } catch (err) {
    // Nothing half-created: a checkout the provider never opened is not kept.
    await db().checkoutSession.delete({ where: { id: checkout.id } }).catch(() => undefined);
    throw err;
  }
}
