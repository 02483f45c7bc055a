// The storefront's checkout over HTTP (docs/decisions.md, "Billing", "Checkout"):
//   GET  /checkout/plans/<slug>       review: what is bought, at what price, for whom (no tax, no coupons)
//   POST /api/checkout                startCheckout → 303 to the provider's hosted page (free plans: joined at once)
//   GET  /checkout/complete/<id>      the provider's return: completeCheckout → signed in → confirmation
// Each parses its own input, refuses cross-site posts by Origin, and maps domain errors to a page.
import { hashBrowserToken } from "./start-checkout";
import { parseCookies } from "../auth/cookies";
import { issueSessionCookie } from "../auth/issue-session-cookie";
import { getMemberSession, type MemberSession } from "../auth/session";
import { now as clockNow } from "../clock";
import { isUuid } from "../core/ids";
import { safeEqual } from "../credentials/secret";
import { db } from "../db/client";
import type { MembershipPlan, School } from "../db/generated/client";
import { asDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { isSameOriginPost } from "../http/same-origin";
import { BodyEncodingError, BodyTooLargeError, hasNul, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { createSubscription } from "../membership/create-subscription";
import { displayDate, displayPrice, moneyString } from "../storefront/format";
import { planTerms } from "../storefront/documents/plan";
import { memberActor } from "../db/audit";
import { requestAuditFacts, requestContext } from "../tenancy/request-context";
import {
  CHECKOUT_ALREADY_MEMBER,
  CHECKOUT_EXPIRED,
  CHECKOUT_MEMBERS_ONLY,
  CHECKOUT_NOT_FOUND,
  CHECKOUT_NOT_PAID,
  CHECKOUT_PLAN_CLOSED,
  CHECKOUT_PLAN_NOT_FOUND,
  hasLivePlan,
  isPlanOpen,
  mayBuy,
  trialDaysOf,
} from "./checkout-rules";
import { checkoutPage, escapeHtml, NO_TAX_NOTE, summaryHtml } from "./checkout-html";
import { completeCheckout } from "./complete-checkout";
import { checkoutReturnPath, checkoutReviewPath, startCheckout } from "./start-checkout";

export const CHECKOUT_START_PATH = "/api/checkout";
const MAX_FORM_BYTES = 8 * 1024;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
const TOKEN_COOKIE = "checkout_token";

const loginHref = (path: string) => `/login?callbackUrl=${encodeURIComponent(path)}`;

/** The form body, or the page that refuses it. */
export async function readForm(request: Request, schoolName: string): Promise<URLSearchParams | Response> {
  const refuse = (status: number, message: string, headers?: Record<string, string>) =>
    checkoutPage({ status, schoolName, title: "Invalid request", body: `<p class="error" role="alert">${escapeHtml(message)}</p>`, headers });
  if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return refuse(415, "Send the form as application/x-www-form-urlencoded.");
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBodyText(request, MAX_FORM_BYTES));
  } catch (err) {
    if (err instanceof BodyTooLargeError) return refuse(413, "The form is larger than 8 KiB.", { ...REFUSED_BODY_HEADERS });
    if (err instanceof BodyEncodingError) return refuse(400, err.message);
    throw err;
  }
  for (const [k, v] of form) if (hasNul(k) || hasNul(v)) return refuse(400, "The form must not contain the NUL character.");
  return form;
}

export function unavailableCheckoutPage(): Response {
  const seconds = retryAfterHeaders()["retry-after"];
  return checkoutPage({
    status: 503,
    schoolName: "Schoolhouse",
    title: "Temporarily unavailable",
    body: `<p class="error" role="alert">Checkout is briefly unavailable because our database cannot be reached. Nothing was charged. Try again in ${escapeHtml(String(seconds))} seconds.</p>`,
    headers: retryAfterHeaders(),
  });
}

export async function guardedCheckout(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (asDatabaseUnavailable(err)) return unavailableCheckoutPage();
    throw err;
  }
}

const notFoundPage = (schoolName: string, message = "There is no plan at this address. Nothing was charged.") =>
  checkoutPage({ status: 404, schoolName, title: "Not found", body: `<p class="error" role="alert">${escapeHtml(message)}</p><p><a href="/">Go to ${escapeHtml(schoolName)}</a></p>` });

const STATUS_OF: Record<string, number> = {
  [CHECKOUT_PLAN_NOT_FOUND]: 404,
  [CHECKOUT_NOT_FOUND]: 404,
  [CHECKOUT_PLAN_CLOSED]: 410,
  [CHECKOUT_EXPIRED]: 410,
  [CHECKOUT_ALREADY_MEMBER]: 409,
  [CHECKOUT_MEMBERS_ONLY]: 403,
  [CHECKOUT_NOT_PAID]: 409,
};

interface Viewer {
  school: School;
  session: MemberSession | null;
  /** The session's account is a member of this school. */
  member: boolean;
}

async function viewerOf(request: Request): Promise<Viewer | null> {
  const school = await requestContext(request).school();
  if (!school) return null;
  const session = await getMemberSession(request);
  const member = session
    ? (await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: school.id, userId: session.userId } }, select: { id: true } })) !== null
    : false;
  return { school, session, member };
}

function priceLine(plan: MembershipPlan): string {
  return displayPrice(moneyString(plan.price), plan.currency);
}

/** The review page's content for a plan and a viewer, with an optional refusal or note on top. */
async function reviewPage(options: { viewer: Viewer; plan: MembershipPlan; now: Date; status?: number; error?: string; note?: string; values?: { email: string; name: string } }): Promise<Response> {
  const { viewer, plan, now } = options;
  const { school, session } = viewer;
  const path = checkoutReviewPath(plan.slug);
  const trial = trialDaysOf(plan);
  const free = plan.price.isZero();
  const rows: [string, string][] = [
    ["Plan", plan.name],
    ["Price", free ? "Free" : priceLine(plan)],
    ["Terms", planTerms(plan)],
  ];
  if (trial && !free) rows.push(["Trial", `${trial} days free; the first charge is on ${displayDate(new Date(now.getTime() + trial * 86_400_000))}`]);
  const parts: string[] = [];
  if (options.error) parts.push(`<p class="error" role="alert">${escapeHtml(options.error)}</p>`);
  if (options.note) parts.push(`<p class="done" role="status">${escapeHtml(options.note)}</p>`);
  parts.push(summaryHtml(rows));
  parts.push(`<p class="note">${escapeHtml(NO_TAX_NOTE)}</p>`);
  const gated = school.enterpriseTraining && !viewer.member;
  const has = session && viewer.member ? await hasLivePlan(db(), { userId: session.userId, planId: plan.id, now }) : false;
  const action = free ? "Join now" : trial ? "Start free trial" : plan.planType === "recurring" ? "Join and pay" : "Buy now";
  if (!isPlanOpen(plan, now)) {
    parts.push(`<p>${escapeHtml(CHECKOUT_PLAN_CLOSED)}.</p>`);
  } else if (gated) {
    parts.push(`<p>${escapeHtml(CHECKOUT_MEMBERS_ONLY)}.</p><p><a href="${escapeHtml(loginHref(path))}">Sign in</a></p>`);
  } else if (has) {
    parts.push(`<p>You already have this plan. <a href="/account/memberships">See your memberships</a>.</p>`);
  } else if (session) {
    parts.push(`<form method="post" action="${CHECKOUT_START_PATH}"><input type="hidden" name="plan" value="${escapeHtml(plan.id)}">
<p>Signed in as <strong>${escapeHtml(session.email)}</strong>.</p><button type="submit">${escapeHtml(action)}</button></form>`);
  } else if (free) {
    parts.push(`<p><a href="${escapeHtml(loginHref(path))}">Sign in to join</a>: this plan is free.</p>`);
  } else {
    const v = options.values ?? { email: "", name: "" };
    parts.push(`<form method="post" action="${CHECKOUT_START_PATH}"><input type="hidden" name="plan" value="${escapeHtml(plan.id)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320" value="${escapeHtml(v.email)}">
<label for="name">Your name</label><input id="name" name="name" autocomplete="name" maxlength="200" value="${escapeHtml(v.name)}">
<button type="submit">${escapeHtml(action)}</button></form>
<p class="note">Already a member? <a href="${escapeHtml(loginHref(path))}">Sign in first</a>. A new account gets a link by mail to set its password.</p>`);
  }
  if (!free && !gated) parts.push(`<p class="note">You pay on the payment provider's page; card details never reach ${escapeHtml(school.name)}.</p>`);
  return checkoutPage({ status: options.status ?? 200, schoolName: school.name, title: free ? `Join ${plan.name}` : `Checkout: ${plan.name}`, body: parts.join("\n") });
}

/** GET /checkout/plans/<slug>: the review page. */
export async function handleCheckoutReview(request: Request): Promise<Response> {
  return guardedCheckout(async () => {
    const viewer = await viewerOf(request);
    if (!viewer) return notFoundPage("Schoolhouse");
    const slug = new URL(request.url).pathname.split("/")[3] ?? "";
    const plan = SLUG.test(slug) ? await db().membershipPlan.findFirst({ where: { schoolId: viewer.school.id, slug } }) : null;
    // Draft and hidden plans are not on the storefront: the same 404 as an unknown slug.
    if (!plan || plan.status !== "published") return notFoundPage(viewer.school.name);
    const canceled = new URL(request.url).searchParams.get("canceled") === "1";
    return reviewPage({ viewer, plan, now: clockNow(), note: canceled ? "Checkout canceled: nothing was charged." : undefined });
  });
}

/** POST /api/checkout: start buying (or join a free plan at once). */
export async function handleCheckoutStart(request: Request): Promise<Response> {
  return guardedCheckout(async () => {
    const viewer = await viewerOf(request);
    if (!viewer) return notFoundPage("Schoolhouse");
    const { school } = viewer;
    const form = await readForm(request, school.name);
    if (form instanceof Response) return form;
    const origin = requestContext(request).origin;
    if (!isSameOriginPost(request.headers, origin)) {
      return checkoutPage({ status: 403, schoolName: school.name, title: "Form expired", body: `<p class="error" role="alert">This form did not come from this site. Nothing was charged: go back, reload the page and try again.</p>` });
    }
    const planId = (form.get("plan") ?? "").slice(0, 64);
    const plan = isUuid(planId) ? await db().membershipPlan.findFirst({ where: { id: planId, schoolId: school.id } }) : null;
    if (!plan) return notFoundPage(school.name, `${CHECKOUT_PLAN_NOT_FOUND}: the form named no plan of ${school.name}. Nothing was charged.`);
    const now = clockNow();
    const signedIn = viewer.session && (viewer.member || !school.enterpriseTraining) ? viewer.session : null;
    if (plan.price.isZero()) return joinFree({ viewer, plan, now, request });
    const values = { email: (form.get("email") ?? "").slice(0, 320), name: (form.get("name") ?? "").slice(0, 200) };
    const started = await startCheckout({
      schoolId: school.id,
      input: { planId: plan.id, email: values.email, name: values.name },
      member: signedIn ? { userId: signedIn.userId } : null,
      origin,
      now,
    });
    if (!started.record) {
      const error = started.errors[0]!;
      return reviewPage({ viewer, plan, now, status: STATUS_OF[error] ?? 400, error: `${error}. Nothing was charged.`, values });
    }
    const { checkoutId, url, browserToken } = started.record;
    const secure = origin.startsWith("https://") ? "; Secure" : "";
    const cookie = `${TOKEN_COOKIE}=${browserToken}; Path=${checkoutReturnPath(checkoutId)}; HttpOnly; SameSite=Lax; Max-Age=86400${secure}`;
    return new Response(null, { status: 303, headers: { location: url, "set-cookie": cookie, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
  });
}

/** A free plan: a signed-in member joins at once (the Admin API's createSubscription, collected externally: nothing to pay). */
async function joinFree(options: { viewer: Viewer; plan: MembershipPlan; now: Date; request: Request }): Promise<Response> {
  const { viewer, plan, now, request } = options;
  if (!viewer.session) {
    return new Response(null, { status: 303, headers: { location: loginHref(checkoutReviewPath(plan.slug)), "cache-control": "no-store" } });
  }
  if (!isPlanOpen(plan, now)) return reviewPage({ viewer, plan, now, status: 410, error: `${CHECKOUT_PLAN_CLOSED}. Nothing was changed.` });
  if (!(await mayBuy(db(), { schoolId: viewer.school.id, userId: viewer.session.userId }))) {
    return reviewPage({ viewer, plan, now, status: 403, error: `${CHECKOUT_MEMBERS_ONLY}. Nothing was changed.` });
  }
  const created = await createSubscription({ schoolId: viewer.school.id, input: { email: viewer.session.email, name: viewer.session.name, planId: plan.id }, now, actor: memberActor(viewer.session, requestAuditFacts(request)) });
  if (!created.record) return reviewPage({ viewer, plan, now, status: 409, error: `${CHECKOUT_ALREADY_MEMBER}. Nothing was changed.` });
  return new Response(null, { status: 303, headers: { location: "/account/memberships?done=joined", "cache-control": "no-store" } });
}

/** GET /checkout/complete/<id>: the provider sent the member back; the provider says whether it is paid. */
export async function handleCheckoutReturn(request: Request): Promise<Response> {
  return guardedCheckout(async () => {
    const viewer = await viewerOf(request);
    if (!viewer) return notFoundPage("Schoolhouse");
    const { school } = viewer;
    const id = new URL(request.url).pathname.split("/")[3] ?? "";
    const now = clockNow();
    const result = await completeCheckout({ schoolId: school.id, checkoutId: id, now });
    if (!result.record) {
      const error = result.errors[0]!;
      const detail =
        error === CHECKOUT_NOT_PAID
          ? "Finish paying on the payment page, or start again from the plan's page. Nothing was charged."
          : error === CHECKOUT_ALREADY_MEMBER
            ? "Your account got this plan another way meanwhile, so this payment was not applied: contact the school for a refund."
            : "Nothing was charged by this page.";
      return checkoutPage({ status: STATUS_OF[error] ?? 400, schoolName: school.name, title: "Checkout not completed", body: `<p class="error" role="alert">${escapeHtml(error)}.</p><p>${escapeHtml(detail)}</p><p><a href="/">Go to ${escapeHtml(school.name)}</a></p>` });
    }
    const { checkout, subscription } = result.record;
    const token = parseCookies(request.headers.get("cookie")).get(TOKEN_COOKIE) ?? "";
    const ownBrowser = token !== "" && safeEqual(hashBrowserToken(token), checkout.browserTokenHash);
    const signedInAsBuyer = viewer.session?.userId === checkout.userId;
    const headers: Record<string, string> = {};
    let signedIn = signedInAsBuyer;
    // Only the browser that started the checkout, and only for the account the checkout created:
    // paying for someone else's email never signs in as them.
    if (!signedInAsBuyer && ownBrowser && checkout.accountCreated && checkout.userId) {
      const user = await db().user.findUniqueOrThrow({ where: { id: checkout.userId }, select: { id: true, email: true, name: true } });
      headers["set-cookie"] = await issueSessionCookie({ user, origin: requestContext(request).origin, userAgent: request.headers.get("user-agent"), now });
      signedIn = true;
    }
    if (!signedIn && !ownBrowser) {
      return checkoutPage({ status: 200, schoolName: school.name, title: "Checkout complete", body: `<p class="done" role="status">This checkout is complete.</p><p><a href="${escapeHtml(loginHref("/account/memberships"))}">Sign in</a> to see your memberships.</p>` });
    }
    const plan = subscription?.plan;
    const payment = subscription ? await db().payment.findFirst({ where: { subscriptionId: subscription.id, state: { in: ["succeeded", "refunded"] } }, orderBy: { createdAt: "asc" } }) : null;
    const rows: [string, string][] = [
      ["Plan", plan?.name ?? ""],
      ["State", subscription?.state === "trialing" ? `Free trial until ${displayDate(subscription.currentPeriodEnd!)}` : (subscription?.state ?? "")],
      ["Account", checkout.email],
    ];
    if (payment) rows.push(["Paid", `${displayPrice(moneyString(payment.amount), payment.currency)} on ${displayDate(payment.paidAt ?? now)}`]);
    const parts = [`<p class="done" role="status">Thank you: your membership ${subscription?.state === "incomplete" ? "is waiting for its first payment" : "has started"}.</p>`, summaryHtml(rows)];
    if (subscription?.state === "incomplete") parts.push(`<p class="error" role="alert">The first charge of your card failed. Update your card on your account page within 23 hours to keep the membership.</p>`);
    if (signedIn && payment) parts.push(`<p><a href="/account/payments/${escapeHtml(payment.id)}">Your receipt</a> (also sent by mail).</p>`);
    else if (payment) parts.push(`<p>A receipt was sent to ${escapeHtml(checkout.email)}.</p>`);
    if (checkout.accountCreated) parts.push(`<p>We sent ${escapeHtml(checkout.email)} a link to set your password.</p>`);
    parts.push(signedIn ? `<p><a href="/account/memberships">Your memberships</a></p>` : `<p><a href="${escapeHtml(loginHref("/account/memberships"))}">Sign in as ${escapeHtml(checkout.email)}</a> to see it on your account.</p>`);
    return checkoutPage({ status: 200, schoolName: school.name, title: "Checkout complete", body: parts.join("\n"), headers });
  });
}
