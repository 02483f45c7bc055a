import { createHash, randomBytes, randomUUID } from "node:crypto";
import { isUuid } from "../core/ids";
import { db } from "../db/client";
import { rawQuery } from "../db/raw";
import { failure, success, type Payload } from "../db/write-transaction";
import { LIVE_STATES } from "../membership/states";
import { INVALID_EMAIL, NAME_REQUIRED, memberName, normalizeEmail } from "../membership/users";
import { versionedCheckoutItem } from "./checkout-item-cache";
import { CHECKOUT_MEMBERS_ONLY, CHECKOUT_ONE_ITEM, CHECKOUT_TTL_MS, checkoutMessages, sellable, trialDaysOf, type CheckoutItem, type CheckoutItemKind, type CheckoutItemRef } from "./checkout-rules";
import type { PaymentProviderPort } from "./provider";
import { providerOfAccount } from "./provider-for";
import { stripeAccountFromRow } from "./stripe-settings";

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

// Every check of a start that reads the database, and the CheckoutSession's insert, as ONE
// statement through the raw driver (docs/benchmarks.md, "Checkout"; it was seven Prisma statements
// before the provider's): the buyer (the signed-in member's user row, or the user of a visitor's
// email), the school's gate and the buyer's membership there, whether the buyer already has the
// item (ownsItem's rules: a live subscription of the plan, the enrollment, the download's access),
// the school's provider (stripeAccountOf's row), and the insert. The insert happens only when every
// check passes and ContentVersion still equals the version the item was read at, so the amount is
// the content's price now even when the item came from the process cache. The facts come back
// either way, and the refusal is named in JavaScript in the rules' order (refusalOf).
const LIVE = LIVE_STATES.map((state) => `'${state}'`).join(", ");
const START_SQL = `
WITH buyer AS (
  SELECT "id", "email" FROM "User" WHERE "id" = $9::uuid
  UNION ALL
  SELECT "id", "email" FROM "User" WHERE $9::uuid IS NULL AND "email" = $10
), facts AS (
  SELECT
    ($15::bigint IS NULL OR (SELECT "version" FROM "ContentVersion" WHERE "id" = 1) = $15::bigint) AS "current",
    (SELECT "id" FROM buyer) AS "userId",
    (SELECT "email" FROM buyer) AS "buyerEmail",
    COALESCE((SELECT "enterpriseTraining" FROM "School" WHERE "id" = $2::uuid), false) AS "gated",
    EXISTS (SELECT 1 FROM "SchoolMembership" WHERE "schoolId" = $2::uuid AND "userId" = (SELECT "id" FROM buyer)) AS "member",
    (EXISTS (SELECT 1 FROM "Subscription" WHERE "userId" = (SELECT "id" FROM buyer) AND "planId" = $3::uuid
               AND "state" IN (${LIVE}) AND ("endAt" IS NULL OR "endAt" > $14))
     OR EXISTS (SELECT 1 FROM "Enrollment" WHERE "courseId" = $4::uuid AND "userId" = (SELECT "id" FROM buyer))
     OR EXISTS (SELECT 1 FROM "DownloadAccess" WHERE "downloadId" = $5::uuid AND "userId" = (SELECT "id" FROM buyer))) AS "owns",
    b."stripeSecretKey", b."stripeWebhookSecret", b."livemode"
  FROM (SELECT 1) AS one LEFT JOIN "SchoolBilling" b ON b."schoolId" = $2::uuid
), inserted AS (
  INSERT INTO "CheckoutSession" ("id", "schoolId", "planId", "courseId", "downloadId", "amount", "currency", "trialDays",
                                 "userId", "email", "name", "provider", "browserTokenHash", "expiresAt", "createdAt")
  SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::numeric, $7, $8::int, $9::uuid,
         CASE WHEN $9::uuid IS NULL THEN $10 ELSE f."buyerEmail" END, $11,
         CASE WHEN f."stripeSecretKey" IS NOT NULL AND f."stripeWebhookSecret" IS NOT NULL THEN 'stripe' ELSE 'test' END,
         $12, $13, $14
    FROM facts f
   WHERE f."current" AND ($9::uuid IS NULL OR f."userId" IS NOT NULL) AND (f."userId" IS NOT NULL OR $11::text IS NOT NULL)
     AND (NOT f."gated" OR f."member") AND NOT f."owns"
  RETURNING "email"
)
SELECT f.*, (SELECT "email" FROM inserted) AS "insertedEmail" FROM facts f`;

interface StartFacts {
  current: boolean;
  userId: string | null;
  gated: boolean;
  member: boolean;
  owns: boolean;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  livemode: boolean | null;
  /** The row's email when the statement inserted it; null: nothing was written. */
  insertedEmail: string | null;
}

/** Why the statement wrote nothing, first failure wins (startCheckout's order). */
function refusalOf(facts: StartFacts, options: { member: boolean; name: string | null; kind: CheckoutItemKind }): string {
  if (options.member && !facts.userId) return INVALID_EMAIL;
  if (!options.member && !facts.userId && !options.name) return NAME_REQUIRED;
  if (facts.gated && !facts.member) return CHECKOUT_MEMBERS_ONLY;
  if (facts.owns) return checkoutMessages(options.kind).owned;
  throw new Error("startCheckout: the statement wrote nothing, yet no rule refused it");
}

/**
 * Tries with the cached item first, then with fresh reads; content written between every read and
 * its statement this many times in a row (staff saving over and over) gives up the version guard for
 * the last try, which then copies the item as read just before it, as a read-then-insert would.
 */
const GUARDED_ATTEMPTS = 3;

/**
 * Starts buying an item: a plan (a subscription), or once a course (an enrollment) or a digital
 * download (its access). The price, currency and trial are copied from the item as the content
 * holds it now (never from the request), for the signed-in member or a visitor's email; then the
 * provider's hosted checkout is opened. Refused, first failure wins, nothing written: an id that is
 * not this school's item, a closed or free item (or a course that comes with a plan), a bad email,
 * a missing member account or a missing name, a gated school's non-member, a member who already
 * has the item. The return and cancel URLs are built here from the school's origin, never taken
 * from the request.
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
  if (!isUuid(ref.id)) return failure(checkoutMessages(ref.kind).notFound);
  const email = member ? null : normalizeEmail(input.email ?? "");
  const name = member ? null : memberName(input.name);
  const browserToken = randomBytes(24).toString("base64url");
  const checkoutId = randomUUID();

  for (let attempt = 1; ; attempt++) {
    const versioned = await versionedCheckoutItem({ schoolId, key: ref, now, fresh: attempt > 1 });
    const found = sellable(versioned?.item ?? null, ref.kind);
    if ("error" in found) return failure(found.error);
    const { item } = found;
    if (!member && !email) return failure(INVALID_EMAIL);
    const trialDays = item.plan ? trialDaysOf(item.plan) : null;
    const guard = attempt <= GUARDED_ATTEMPTS ? (versioned!.contentVersion?.toString() ?? null) : null;
    const [facts] = await rawQuery<StartFacts>(
      START_SQL,
      [
        checkoutId,
        schoolId,
        item.kind === "plan" ? item.id : null,
        item.kind === "course" ? item.id : null,
        item.kind === "download" ? item.id : null,
        item.price!.toFixed(2),
        item.currency!,
        trialDays,
        member?.userId ?? null,
        email,
        name,
        hashBrowserToken(browserToken),
        new Date(now.getTime() + CHECKOUT_TTL_MS),
        now,
        guard,
      ],
      { name: "start-checkout" },
    );
    if (!facts) throw new Error("startCheckout: the statement returned no row");
    if (facts.insertedEmail === null) {
      if (!facts.current) continue;
      return failure(refusalOf(facts, { member: member !== null, name, kind: item.kind }));
    }
    return openHostedCheckout({ checkoutId, browserToken, item, trialDays, email: facts.insertedEmail, origin, provider: providerOfAccount(stripeAccountFromRow(facts)) });
  }
}

/** The provider's hosted page for the checkout just written; nothing half-created if it fails. */
async function openHostedCheckout(options: {
  checkoutId: string;
  browserToken: string;
  item: CheckoutItem;
  trialDays: number | null;
  email: string;
  origin: string;
  provider: PaymentProviderPort;
}): Promise<Payload<StartedCheckout>> {
  const { checkoutId, browserToken, item, trialDays, email, origin, provider } = options;
  const price = item.price!;
  const currency = item.currency!;
  try {
    const hosted = await provider.createHostedCheckout({
      checkoutId,
      // A trial only saves the card: the first charge is the trial's end (a renewal).
      amount: trialDays ? "0.00" : price.toFixed(2),
      currency,
      description: trialDays ? `${item.name}: ${trialDays}-day free trial, then ${price.toFixed(2)} ${currency}` : item.name,
      customerEmail: email,
      // A plan's card is kept for its renewals; a course or download is paid once and nothing is kept.
      savePaymentMethod: item.kind === "plan",
      successUrl: `${origin}${checkoutReturnPath(checkoutId)}`,
      cancelUrl: `${origin}${checkoutReviewPath(item.slug, item.kind)}?canceled=1`,
    });
    await rawQuery(`UPDATE "CheckoutSession" SET "providerSessionId" = $2 WHERE "id" = $1::uuid`, [checkoutId, hosted.providerSessionId], { name: "checkout-provider-session" });
    return success({ checkoutId, url: hosted.url, browserToken });
  } catch (err) {
    // Nothing half-created: a checkout the provider never opened is not kept.
    await db().checkoutSession.delete({ where: { id: checkoutId } }).catch(() => undefined);
    throw err;
  }
}
