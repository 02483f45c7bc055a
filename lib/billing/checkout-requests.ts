// The storefront's checkout over HTTP (docs/decisions.md, "Billing", "Checkout"):
//   GET  /checkout/plans/<slug>, /checkout/courses/<slug>, /checkout/digital-downloads/<slug>
//                                     review: what is bought, at what price, for whom (no tax, no coupons)
//   POST /api/checkout                startCheckout → 303 to the provider's hosted page (free items: taken at once)
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
import type { Payment, School } from "../db/generated/client";
import { asDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { isSameOriginPost } from "../http/same-origin";
import { BodyEncodingError, BodyTooLargeError, hasNul, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import { createSubscription } from "../membership/create-subscription";
import { enrollStudentToCourse } from "../membership/enroll-student";
import { grantDownloadAccess } from "../membership/grant-download-access";
import { displayDate, displayPrice, moneyString } from "../storefront/format";
import { planTerms } from "../storefront/documents/plan";
import { memberActor } from "../db/audit";
import { requestAuditFacts, requestContext } from "../tenancy/request-context";
import {
  CHECKOUT_ALREADY_ENROLLED,
  CHECKOUT_ALREADY_MEMBER,
  CHECKOUT_ALREADY_OWNED,
  CHECKOUT_COURSE_CLOSED,
  CHECKOUT_COURSE_NOT_FOUND,
  CHECKOUT_COURSE_WITH_PLAN,
  CHECKOUT_DOWNLOAD_CLOSED,
  CHECKOUT_DOWNLOAD_NOT_FOUND,
  CHECKOUT_EXPIRED,
  CHECKOUT_MEMBERS_ONLY,
  CHECKOUT_NOT_FOUND,
  CHECKOUT_NOT_PAID,
  CHECKOUT_ONE_ITEM,
  CHECKOUT_PLAN_CLOSED,
  CHECKOUT_PLAN_NOT_FOUND,
  checkoutMessages,
  isFreeItem,
  mayBuy,
  ownsItem,
  trialDaysOf,
  type CheckoutItem,
  type CheckoutItemKind,
} from "./checkout-rules";
import { checkoutPage, escapeHtml, summaryHtml } from "./checkout-html";
import { versionedCheckoutItem } from "./checkout-item-cache";
import { completeCheckout } from "./complete-checkout";
import { CHECKOUT_SEGMENT, checkoutReturnPath, checkoutReviewPath, startCheckout } from "./start-checkout";

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

const notFoundPage = (schoolName: string, message = "There is nothing to buy at this address. Nothing was charged.") =>
  checkoutPage({ status: 404, schoolName, title: "Not found", body: `<p class="error" role="alert">${escapeHtml(message)}</p><p><a href="/">Go to ${escapeHtml(schoolName)}</a></p>` });

const STATUS_OF: Record<string, number> = {
  [CHECKOUT_PLAN_NOT_FOUND]: 404,
  [CHECKOUT_COURSE_NOT_FOUND]: 404,
  [CHECKOUT_DOWNLOAD_NOT_FOUND]: 404,
  [CHECKOUT_NOT_FOUND]: 404,
  [CHECKOUT_PLAN_CLOSED]: 410,
  [CHECKOUT_COURSE_CLOSED]: 410,
  [CHECKOUT_DOWNLOAD_CLOSED]: 410,
  [CHECKOUT_EXPIRED]: 410,
  [CHECKOUT_ALREADY_MEMBER]: 409,
  [CHECKOUT_ALREADY_ENROLLED]: 409,
  [CHECKOUT_ALREADY_OWNED]: 409,
  [CHECKOUT_COURSE_WITH_PLAN]: 409,
  [CHECKOUT_MEMBERS_ONLY]: 403,
  [CHECKOUT_NOT_PAID]: 409,
  [CHECKOUT_ONE_ITEM]: 400,
};

/** The owner's page of each kind: where a member finds what they have. */
const OWNED_PAGE: Record<CheckoutItemKind, { href: string; label: string }> = {
  plan: { href: "/account/memberships", label: "Your memberships" },
  course: { href: "/account/courses", label: "Your courses" },
  download: { href: "/account/courses", label: "Your courses and downloads" },
};

/** The form field naming each kind's id (POST /api/checkout). */
const FORM_FIELD: Record<CheckoutItemKind, string> = { plan: "plan", course: "course", download: "download" };
const KIND_OF_SEGMENT = new Map(Object.entries(CHECKOUT_SEGMENT).map(([kind, segment]) => [segment, kind as CheckoutItemKind]));
const NOUN: Record<CheckoutItemKind, string> = { plan: "Plan", course: "Course", download: "Download" };

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

function priceLine(item: CheckoutItem): string {
  if (item.price === null || !item.currency) return "Comes with a membership plan";
  return isFreeItem(item) ? "Free" : displayPrice(moneyString(item.price), item.currency);
}

/** The call to action of an item for this viewer: plans join, trial or pay; a course or a download is bought once. */
function actionOf(item: CheckoutItem): string {
  const free = isFreeItem(item);
  if (item.kind === "course") return free ? "Enroll now" : "Buy now";
  if (item.kind === "download") return free ? "Get it now" : "Buy now";
  const trial = item.plan ? trialDaysOf(item.plan) : null;
  return free ? "Join now" : trial ? "Start free trial" : item.plan?.planType === "recurring" ? "Join and pay" : "Buy now";
}

/** The review page's content for an item and a viewer, with an optional refusal or note on top. */
async function reviewPage(options: { viewer: Viewer; item: CheckoutItem; now: Date; status?: number; error?: string; note?: string; values?: { email: string; name: string } }): Promise<Response> {
  const { viewer, item, now } = options;
  const { school, session } = viewer;
  const path = checkoutReviewPath(item.slug, item.kind);
  const plan = item.plan;
  const trial = plan ? trialDaysOf(plan) : null;
  const free = isFreeItem(item);
  const sellsAlone = item.price !== null;
  const rows: [string, string][] = [
    [NOUN[item.kind], item.name],
    ["Price", priceLine(item)],
  ];
  if (plan) rows.push(["Terms", planTerms(plan)]);
  else if (sellsAlone) rows.push(["Payment", free ? "Nothing to pay" : "One-time; no subscription, nothing renews"]);
  if (item.kind === "course" && sellsAlone) rows.push(["Access", free ? "Enrolled at once" : "Enrolled as soon as it is paid"]);
  if (trial && !free) rows.push(["Trial", `${trial} days free; the first charge is on ${displayDate(new Date(now.getTime() + trial * 86_400_000))}`]);
  const parts: string[] = [];
  if (options.error) parts.push(`<p class="error" role="alert">${escapeHtml(options.error)}</p>`);
  if (options.note) parts.push(`<p class="done" role="status">${escapeHtml(options.note)}</p>`);
  // No tax, no coupons: said once, in the footer of every checkout page (checkout-html.ts).
  parts.push(summaryHtml(rows));
  const gated = school.enterpriseTraining && !viewer.member;
  const owned = session && viewer.member ? await ownsItem(db(), { userId: session.userId, item, now }) : false;
  const action = actionOf(item);
  const field = `<input type="hidden" name="${FORM_FIELD[item.kind]}" value="${escapeHtml(item.id)}">`;
  const words = checkoutMessages(item.kind);
  if (!item.open) {
    parts.push(`<p>${escapeHtml(words.closed)}.</p>`);
  } else if (!sellsAlone) {
    parts.push(`<p>${escapeHtml(CHECKOUT_COURSE_WITH_PLAN)}. <a href="/plans">See the plans</a>.</p>`);
  } else if (gated) {
    parts.push(`<p>${escapeHtml(CHECKOUT_MEMBERS_ONLY)}.</p><p><a href="${escapeHtml(loginHref(path))}">Sign in</a></p>`);
  } else if (owned) {
    const page = OWNED_PAGE[item.kind];
    const have = item.kind === "plan" ? "You already have this plan." : item.kind === "course" ? "You are already enrolled in this course." : "You already have this download.";
    parts.push(`<p>${have} <a href="${page.href}">${escapeHtml(page.label)}</a>.</p>`);
  } else if (session) {
    parts.push(`<form method="post" action="${CHECKOUT_START_PATH}">${field}
<p>Signed in as <strong>${escapeHtml(session.email)}</strong>.</p><button type="submit">${escapeHtml(action)}</button></form>`);
  } else if (free) {
    const verb = item.kind === "plan" ? "join" : item.kind === "course" ? "enroll" : "get it";
    parts.push(`<p><a href="${escapeHtml(loginHref(path))}">Sign in to ${verb}</a>: this ${item.kind} is free.</p>`);
  } else {
    const v = options.values ?? { email: "", name: "" };
    parts.push(`<form method="post" action="${CHECKOUT_START_PATH}">${field}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="320" value="${escapeHtml(v.email)}">
<label for="name">Your name</label><input id="name" name="name" autocomplete="name" maxlength="200" value="${escapeHtml(v.name)}">
<button type="submit">${escapeHtml(action)}</button></form>
<p class="note">Already a member? <a href="${escapeHtml(loginHref(path))}">Sign in first</a>. A new account gets a link by mail to set its password.</p>`);
  }
  if (!free && sellsAlone && !gated) parts.push(`<p class="note">You pay on the payment provider's page; card details never reach ${escapeHtml(school.name)}.</p>`);
  const title = free ? (item.kind === "plan" ? `Join ${item.name}` : item.kind === "course" ? `Enroll: ${item.name}` : `Get ${item.name}`) : `Checkout: ${item.name}`;
  return checkoutPage({ status: options.status ?? 200, schoolName: school.name, title, body: parts.join("\n") });
}

/** GET /checkout/plans/<slug>, /checkout/courses/<slug>, /checkout/digital-downloads/<slug>: the review page. */
export async function handleCheckoutReview(request: Request): Promise<Response> {
  return guardedCheckout(async () => {
    const viewer = await viewerOf(request);
    if (!viewer) return notFoundPage("Schoolhouse");
    const [, , segment = "", slug = ""] = new URL(request.url).pathname.split("/");
    const kind = KIND_OF_SEGMENT.get(segment);
    const now = clockNow();
    // From the process cache (checkout-item-cache.ts): at most as old as the storefront's pages.
    const item = kind && SLUG.test(slug) ? ((await versionedCheckoutItem({ schoolId: viewer.school.id, key: { kind, slug }, now }))?.item ?? null) : null;
    // Draft and hidden items are not on the storefront: the same 404 as an unknown slug.
    if (!item || !item.published) return notFoundPage(viewer.school.name);
    const canceled = new URL(request.url).searchParams.get("canceled") === "1";
    return reviewPage({ viewer, item, now, note: canceled ? "Checkout canceled: nothing was charged." : undefined });
  });
}

/** POST /api/checkout: start buying (or take a free item at once). */
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
    // Exactly one item field: a form naming two (a tampered one) or none buys nothing.
    const named = (Object.keys(FORM_FIELD) as CheckoutItemKind[]).filter((k) => form.has(FORM_FIELD[k]));
    const now = clockNow();
    const kind = named.length === 1 ? named[0]! : null;
    const id = kind ? (form.get(FORM_FIELD[kind]) ?? "").slice(0, 64) : "";
    const item = kind && isUuid(id) ? ((await versionedCheckoutItem({ schoolId: school.id, key: { kind, id }, now }))?.item ?? null) : null;
    if (!item) {
      const what = kind ? checkoutMessages(kind).notFound : CHECKOUT_ONE_ITEM;
      return notFoundPage(school.name, `${what}: the form named no ${kind ?? "item"} of ${school.name}. Nothing was charged.`);
    }
    const signedIn = viewer.session && (viewer.member || !school.enterpriseTraining) ? viewer.session : null;
    if (isFreeItem(item)) return takeFree({ viewer, item, now, request });
    const values = { email: (form.get("email") ?? "").slice(0, 320), name: (form.get("name") ?? "").slice(0, 200) };
    const started = await startCheckout({
      schoolId: school.id,
      input: { planId: item.kind === "plan" ? item.id : null, courseId: item.kind === "course" ? item.id : null, downloadId: item.kind === "download" ? item.id : null, email: values.email, name: values.name },
      member: signedIn ? { userId: signedIn.userId } : null,
      origin,
      now,
    });
    if (!started.record) {
      const error = started.errors[0]!;
      return reviewPage({ viewer, item, now, status: STATUS_OF[error] ?? 400, error: `${error}. Nothing was charged.`, values });
    }
    const { checkoutId, url, browserToken } = started.record;
    const secure = origin.startsWith("https://") ? "; Secure" : "";
    const cookie = `${TOKEN_COOKIE}=${browserToken}; Path=${checkoutReturnPath(checkoutId)}; HttpOnly; SameSite=Lax; Max-Age=86400${secure}`;
    return new Response(null, { status: 303, headers: { location: url, "set-cookie": cookie, "cache-control": "no-store", "referrer-policy": "no-referrer" } });
  });
}

/**
 * A free item, taken at once by a signed-in member with the verb staff use: a plan is joined
 * (createSubscription, collected externally: nothing to pay), a course enrolled
 * (enrollStudentToCourse), a download given (grantDownloadAccess). A visitor signs in first.
 */
async function takeFree(options: { viewer: Viewer; item: CheckoutItem; now: Date; request: Request }): Promise<Response> {
  const { viewer, item, now, request } = options;
  if (!viewer.session) {
    return new Response(null, { status: 303, headers: { location: loginHref(checkoutReviewPath(item.slug, item.kind)), "cache-control": "no-store" } });
  }
  const words = checkoutMessages(item.kind);
  const refuse = (status: number, error: string) => reviewPage({ viewer, item, now, status, error: `${error}. Nothing was changed.` });
  if (!item.open) return refuse(410, words.closed);
  if (!(await mayBuy(db(), { schoolId: viewer.school.id, userId: viewer.session.userId }))) return refuse(403, CHECKOUT_MEMBERS_ONLY);
  if (await ownsItem(db(), { userId: viewer.session.userId, item, now })) return refuse(409, words.owned);
  const session = viewer.session;
  const schoolId = viewer.school.id;
  const actor = memberActor(session, requestAuditFacts(request));
  const who = { email: session.email, name: session.name };
  const taken =
    item.kind === "plan"
      ? await createSubscription({ schoolId, input: { ...who, planId: item.id }, now, actor })
      : item.kind === "course"
        ? await enrollStudentToCourse({ schoolId, input: { ...who, courseId: item.id }, now, actor })
        : await grantDownloadAccess({ schoolId, input: { ...who, downloadId: item.id }, now, actor });
  if (!taken.record) return refuse(409, words.owned);
  const done = item.kind === "plan" ? "/account/memberships?done=joined" : item.kind === "course" ? "/account/courses?done=enrolled" : "/account/courses?done=download_added";
  return new Response(null, { status: 303, headers: { location: done, "cache-control": "no-store" } });
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
          ? "Finish paying on the payment page, or start again from the item's page. Nothing was charged."
          : error === CHECKOUT_ALREADY_MEMBER || error === CHECKOUT_ALREADY_ENROLLED || error === CHECKOUT_ALREADY_OWNED
            ? "Your account got this another way meanwhile, so this payment was not applied: contact the school for a refund."
            : error === CHECKOUT_COURSE_NOT_FOUND || error === CHECKOUT_DOWNLOAD_NOT_FOUND
              ? "It was removed from the school after you paid, so this payment was not applied: contact the school for a refund."
              : "Nothing was charged by this page.";
      return checkoutPage({ status: STATUS_OF[error] ?? 400, schoolName: school.name, title: "Checkout not completed", body: `<p class="error" role="alert">${escapeHtml(error)}.</p><p>${escapeHtml(detail)}</p><p><a href="/">Go to ${escapeHtml(school.name)}</a></p>` });
    }
    const { checkout, subscription, payment: oneTime } = result.record;
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
    const ownedPage = OWNED_PAGE[checkout.courseId ? "course" : checkout.downloadId ? "download" : "plan"];
    if (!signedIn && !ownBrowser) {
      return checkoutPage({ status: 200, schoolName: school.name, title: "Checkout complete", body: `<p class="done" role="status">This checkout is complete.</p><p><a href="${escapeHtml(loginHref(ownedPage.href))}">Sign in</a> to see it on your account.</p>` });
    }
    if (oneTime) return oneTimeConfirmation({ school, checkout, payment: oneTime, signedIn, headers, now });
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

/** The confirmation of a course or download bought once: what, how much, the receipt, where to find it. */
function oneTimeConfirmation(options: {
  school: School;
  checkout: { email: string; courseId: string | null; accountCreated: boolean };
  payment: Payment;
  signedIn: boolean;
  headers: Record<string, string>;
  now: Date;
}): Response {
  const { school, checkout, payment, signedIn, headers, now } = options;
  const course = checkout.courseId !== null;
  const page = OWNED_PAGE[course ? "course" : "download"];
  const name = payment.description ?? "";
  const rows: [string, string][] = [
    [course ? "Course" : "Download", name],
    ["Account", checkout.email],
    ["Paid", `${displayPrice(moneyString(payment.amount), payment.currency)} on ${displayDate(payment.paidAt ?? now)}`],
    ["Payment", "One-time; no subscription, nothing renews"],
  ];
  const parts = [`<p class="done" role="status">Thank you: ${escapeHtml(course ? `you are enrolled in ${name}` : `${name} is yours`)}.</p>`, summaryHtml(rows)];
  parts.push(signedIn ? `<p><a href="/account/payments/${escapeHtml(payment.id)}">Your receipt</a> (also sent by mail).</p>` : `<p>A receipt was sent to ${escapeHtml(checkout.email)}.</p>`);
  if (checkout.accountCreated) parts.push(`<p>We sent ${escapeHtml(checkout.email)} a link to set your password.</p>`);
  parts.push(signedIn ? `<p><a href="${page.href}">${escapeHtml(page.label)}</a></p>` : `<p><a href="${escapeHtml(loginHref(page.href))}">Sign in as ${escapeHtml(checkout.email)}</a> to see it on your account.</p>`);
  return checkoutPage({ status: 200, schoolName: school.name, title: "Checkout complete", body: parts.join("\n"), headers });
}
