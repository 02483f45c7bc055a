import { createHash, randomBytes } from "node:crypto";
import { db } from "../db/client";
import { failure, success, type Payload } from "../db/write-transaction";
import { INVALID_EMAIL, NAME_REQUIRED, memberName, normalizeEmail } from "../membership/users";
import {
  CHECKOUT_MEMBERS_ONLY,
  CHECKOUT_ONE_ITEM,
  CHECKOUT_TTL_MS,
  checkoutMessages,
  mayBuy,
  ownsItem,
  sellableItem,
  trialDaysOf,
  type CheckoutItemKind,
  type CheckoutItemRef,
} from "./checkout-rules";
import { providerFor } from "./provider-for";

export interface StartCheckoutInput {
  /** What is bought: exactly one of a plan, a course or a digital download (by id). */
  planId?: string | null;
  courseId?: string | null;
  downloadId?: string | null;
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

/** The storefront path of each kind's review page (`/checkout/<segment>/<slug>`). */
export const CHECKOUT_SEGMENT: Record<CheckoutItemKind, string> = { plan: "plans", course: "courses", download: "digital-downloads" };

/** Where the member comes back to after paying (or giving up), on the school's own origin. */
export const checkoutReturnPath = (checkoutId: string) => `/checkout/complete/${checkoutId}`;
export const checkoutReviewPath = (slug: string, kind: CheckoutItemKind = "plan") => `/checkout/${CHECKOUT_SEGMENT[kind]}/${slug}`;

export const hashBrowserToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The one item the input names, or null when it names none or several. */
export function itemRefOf(input: Pick<StartCheckoutInput, "planId" | "courseId" | "downloadId">): CheckoutItemRef | null {
  const refs: CheckoutItemRef[] = [];
  if (input.planId) refs.push({ kind: "plan", id: input.planId });
  if (input.courseId) refs.push({ kind: "course", id: input.courseId });
  if (input.downloadId) refs.push({ kind: "download", id: input.downloadId });
  return refs.length === 1 ? refs[0]! : null;
}

/**
 * Starts buying an item: a plan (a subscription), or once a course (an enrollment) or a digital
 * download (its access). The price, currency and trial are copied from the item as the content
 * holds it now (never from the request), for the signed-in member or a visitor's email; then the
 * provider's hosted checkout is opened. Refused, first failure wins, nothing written: an id that is
 * not this school's item, a closed or free item (or a course that comes with a plan), a gated
 * school's non-member, a bad email or a missing name, a member who already has the item. The return
 * and cancel URLs are built here from the school's origin, never taken from the request.
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
  const ref = itemRefOf(input);
  if (!ref) return failure(CHECKOUT_ONE_ITEM);
  const sellable = await sellableItem(db(), { schoolId, ref, now });
  if ("error" in sellable) return failure(sellable.error);
  const { item } = sellable;
  const price = item.price!;
  const currency = item.currency!;

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
  if (userId && (await ownsItem(db(), { userId, item, now }))) return failure(checkoutMessages(item.kind).owned);

  const trialDays = item.plan ? trialDaysOf(item.plan) : null;
  const browserToken = randomBytes(24).toString("base64url");
  const provider = await providerFor({ schoolId });
  const checkout = await db().checkoutSession.create({
    data: {
      schoolId,
      planId: item.kind === "plan" ? item.id : null,
      courseId: item.kind === "course" ? item.id : null,
      downloadId: item.kind === "download" ? item.id : null,
      amount: price,
      currency,
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
      amount: trialDays ? "0.00" : price.toFixed(2),
      currency,
      description: trialDays ? `${item.name}: ${trialDays}-day free trial, then ${price.toFixed(2)} ${currency}` : item.name,
      customerEmail: email,
      // A plan's card is kept for its renewals; a course or download is paid once and nothing is kept.
      savePaymentMethod: item.kind === "plan",
      successUrl: `${origin}${checkoutReturnPath(checkout.id)}`,
      cancelUrl: `${origin}${checkoutReviewPath(item.slug, item.kind)}?canceled=1`,
    });
    await db().checkoutSession.update({ where: { id: checkout.id }, data: { providerSessionId: hosted.providerSessionId } });
    return success({ checkoutId: checkout.id, url: hosted.url, browserToken });
  } catch (err) {
    // Nothing half-created: a checkout the provider never opened is not kept.
    await db().checkoutSession.delete({ where: { id: checkout.id } }).catch(() => undefined);
    throw err;
  }
}
