// Courses and digital downloads bought once on the storefront (docs/decisions.md, "Checkout",
// "One-time purchases"): the same checkout as plans (POST /api/checkout, the test provider's page,
// the return page), completed into an enrollment or a download's access with a one-time payment (no
// subscription), its events, audit rows and receipt in one transaction; free items taken at once by
// a signed-in member; every refusal a clear page that writes nothing. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { completeCheckout } from "@/lib/billing/complete-checkout";
import { startCheckout } from "@/lib/billing/start-checkout";
import { payTestHostedCheckout } from "@/lib/billing/test-provider";
import {
  CHECKOUT_ALREADY_ENROLLED,
  CHECKOUT_ALREADY_OWNED,
  CHECKOUT_COURSE_CLOSED,
  CHECKOUT_COURSE_NOT_FOUND,
  CHECKOUT_COURSE_WITH_PLAN,
  CHECKOUT_DOWNLOAD_CLOSED,
  CHECKOUT_MEMBERS_ONLY,
  CHECKOUT_ONE_ITEM,
} from "@/lib/billing/checkout-rules";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn } from "../oauth/helpers";
import { TEST_NOW, freshEmail, gql } from "../admin-api/helpers";
import { PAYMENT_FIELDS, checkoutClient, eventTypesOf } from "./helpers";

const ORIGIN = "http://demo.localhost";
const COURSE = { sql: "5c400000-0000-4000-8000-000700000001", python: "5c400000-0000-4000-8000-000700000002", photo: "5c400000-0000-4000-8000-000700000003", writing: "5c400000-0000-4000-8000-000700000004", draft: "5c400000-0000-4000-8000-000700000005" };
const DOWNLOAD = { free: "5c400000-0000-4000-8000-000a00000001", presets: "5c400000-0000-4000-8000-000a00000002", guide: "5c400000-0000-4000-8000-000a00000003" };
// Made for these tests, as content files would import them.
const FREE_COURSE = "5c400000-0000-4000-8000-0007000000f1";
const PLAN_COURSE = "5c400000-0000-4000-8000-0007000000f2";
const HIDDEN_DOWNLOAD = "5c400000-0000-4000-8000-000a000000f1";
const ACME_COURSE = "5c400000-0000-4000-8000-0007000000f3";

const app = appForSuite({
  host: "demo.localhost",
  now: TEST_NOW,
  prepare: async () => {
    const course = (id: string, schoolId: string, slug: string, price: string | null) =>
      db().course.upsert({ where: { id }, create: { id, schoolId, slug, title: slug.replace(/-/g, " "), price, currency: price === null ? null : "EUR" }, update: {} });
    await course(FREE_COURSE, DEMO_IDS.school, "free-basics", "0.00");
    await course(PLAN_COURSE, DEMO_IDS.school, "members-masterclass", null);
    await course(ACME_COURSE, DEMO_IDS.acmeSchool, "acme-paid-course", "15.00");
    await db().digitalDownload.upsert({
      where: { id: HIDDEN_DOWNLOAD },
      create: { id: HIDDEN_DOWNLOAD, schoolId: DEMO_IDS.school, slug: "hidden-pack", title: "Hidden pack", price: "5.00", currency: "USD", status: "hidden" },
      update: {},
    });
  },
});

const { start, started, pay, returnTo } = checkoutClient(app, ORIGIN);

const counts = async () => ({
  checkouts: await db().checkoutSession.count(),
  subscriptions: await db().subscription.count(),
  users: await db().user.count(),
  payments: await db().payment.count(),
  enrollments: await db().enrollment.count(),
  downloadAccess: await db().downloadAccess.count(),
  events: await db().webhookEvent.count(),
  mails: await db().mailMessage.count(),
  audit: await db().auditEvent.count(),
});

/** A checkout started, paid with 4242 and returned to from the starting browser. */
async function buy(fields: Record<string, string>, cookie = "") {
  const s = await started(fields, cookie);
  expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(303);
  const done = await returnTo(s.checkoutId, cookie ? `${cookie}; ${s.tokenCookie}` : s.tokenCookie);
  return { ...s, done };
}

describe("a visitor buys a paid course", () => {
  it("review page, hosted page, 4242: an account (signed in, password link), the enrollment, a one-time payment at the content's price, events, receipt", async () => {
    const review = await app.fetch("/checkout/courses/intro-to-sql");
    expect(review.status).toBe(200);
    const html = await review.text();
    expect(html).toContain("49.00 USD");
    expect(html).toContain("One-time; no subscription");
    expect(html).toContain("Prices include no tax; coupons are not available.");
    expect(html).toContain('name="course"');

    const email = freshEmail("course");
    // Price fields in the form are ignored: the checkout copies the course's.
    const s = await started({ course: COURSE.sql, email, name: "Course Buyer", price: "0.01", amount: "0.01", currency: "JPY" });
    const row = await db().checkoutSession.findUniqueOrThrow({ where: { id: s.checkoutId } });
    expect(row).toMatchObject({ planId: null, courseId: COURSE.sql, downloadId: null, currency: "USD", trialDays: null, status: "open" });
    expect(row.amount.toFixed(2)).toBe("49.00");
    const hosted = await (await app.fetch(s.hostedPath)).text();
    expect(hosted).toContain("Intro to SQL");
    expect(hosted).toContain("Pay 49.00 USD");

    expect((await pay(s.hostedPath, "4242 4242 4242 4242")).status).toBe(303);
    const done = await returnTo(s.checkoutId, s.tokenCookie);
    expect(done.status).toBe(200);
    expect(done.headers.get("set-cookie")).toMatch(/authjs\.session-token=/);
    const confirmation = await done.text();
    expect(confirmation).toContain("you are enrolled in Intro to SQL");
    expect(confirmation).toContain("One-time; no subscription");
    expect(confirmation).toMatch(/href="\/account\/payments\/[0-9a-f-]{36}"/);
    expect(confirmation).toContain('href="/account/courses"');
    expect(confirmation).toContain("a link to set your password");

    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await db().enrollment.count({ where: { userId: user.id, courseId: COURSE.sql } })).toBe(1);
    expect(await db().subscription.count({ where: { userId: user.id } })).toBe(0);
    const payment = await db().payment.findFirstOrThrow({ where: { userId: user.id } });
    expect(payment).toMatchObject({ subscriptionId: null, courseId: COURSE.sql, downloadId: null, description: "Intro to SQL", currency: "USD", state: "succeeded", billingReason: "one_time", provider: "test", paymentMethodId: "pm_card_visa", periodStart: null, periodEnd: null, paidAt: TEST_NOW });
    expect(payment.amount.toFixed(2)).toBe("49.00");
    expect(payment.providerPaymentId).toMatch(/^pi_test_/);
    const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: s.checkoutId } });
    expect(checkout).toMatchObject({ status: "complete", paymentId: payment.id, userId: user.id, accountCreated: true, subscriptionId: null });

    // Events of the purchase, written with it: the enrollment and the payment (and the new member).
    const enrollment = await db().enrollment.findFirstOrThrow({ where: { userId: user.id } });
    expect(await eventTypesOf(enrollment.id)).toEqual(["enrollment.created"]);
    expect(await eventTypesOf(payment.id)).toEqual(["payment.succeeded"]);
    expect(await eventTypesOf(user.id)).toEqual(["member.created"]);
    const paymentEvent = JSON.parse((await db().webhookEvent.findFirstOrThrow({ where: { subjectId: payment.id } })).payload);
    expect(paymentEvent.data).toMatchObject({ subscriptionId: null, userId: user.id, courseId: COURSE.sql, billingReason: "one_time", description: "Intro to SQL", amount: "49.00" });
    const mails = (await db().mailMessage.findMany({ where: { to: email } })).map((m) => m.kind).sort();
    expect(mails).toEqual(["purchase-receipt", "verify-email", "welcome"]);
    const receipt = await db().mailMessage.findFirstOrThrow({ where: { to: email, kind: "purchase-receipt" } });
    expect(receipt.params).toMatchObject({ item: "Intro to SQL", itemKind: "course", amount: "49.00", currency: "USD", subscriptionId: null, paymentId: payment.id });
    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "enrollment.create", targetId: enrollment.id } });
    expect(audit).toMatchObject({ actorType: "member", actorId: user.id });
    expect(await db().memberSession.count({ where: { userId: user.id, origin: ORIGIN } })).toBe(1);

    // The Admin API lists the one-time payment with the member's payments.
    const listed = await gql(app, `query P($userId: String) { payments(userId: $userId, first: 10) { nodes { ${PAYMENT_FIELDS} userId courseId downloadId description } } }`, { userId: user.id });
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.payments.nodes).toEqual([
      expect.objectContaining({ id: payment.id, subscriptionId: null, billingReason: "one_time", userId: user.id, courseId: COURSE.sql, downloadId: null, description: "Intro to SQL", amount: "49.00" }),
    ]);
  });

  it("a reused return, a second completeCheckout and a second payment of the hosted page create nothing twice", async () => {
    const email = freshEmail("course-reuse");
    const s = await buy({ course: COURSE.python, email, name: "Reuse Buyer" });
    expect(s.done.status).toBe(200);
    const before = await counts();
    expect((await returnTo(s.checkoutId, s.tokenCookie)).status).toBe(200);
    expect((await completeCheckout({ schoolId: DEMO_IDS.school, checkoutId: s.checkoutId, now: TEST_NOW })).errors).toEqual([]);
    expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(409);
    expect(await counts()).toEqual(before);
  });
});

describe("a paid download", () => {
  it("4242: the download's access with its payment, payment.succeeded, the receipt; the confirmation says it is yours", async () => {
    const review = await (await app.fetch("/checkout/digital-downloads/lightroom-presets")).text();
    expect(review).toContain("19.00 USD");
    const email = freshEmail("download");
    const s = await buy({ download: DOWNLOAD.presets, email, name: "Download Buyer" });
    expect(s.done.status).toBe(200);
    expect(await s.done.text()).toContain("is yours");
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const payment = await db().payment.findFirstOrThrow({ where: { userId: user.id } });
    expect(payment).toMatchObject({ subscriptionId: null, downloadId: DOWNLOAD.presets, courseId: null, billingReason: "one_time", state: "succeeded" });
    expect(payment.amount.toFixed(2)).toBe("19.00");
    const access = await db().downloadAccess.findUniqueOrThrow({ where: { downloadId_userId: { downloadId: DOWNLOAD.presets, userId: user.id } } });
    expect(access.paymentId).toBe(payment.id);
    expect(await eventTypesOf(payment.id)).toEqual(["payment.succeeded"]);
    expect(await db().enrollment.count({ where: { userId: user.id } })).toBe(0);
    expect((await db().mailMessage.findFirstOrThrow({ where: { to: email, kind: "purchase-receipt" } })).params).toMatchObject({ itemKind: "download", item: "Catalog Lightroom presets" });
  });

  it("a price with cents (9.50) is charged as the content says", async () => {
    const s = await buy({ download: DOWNLOAD.guide, email: freshEmail("guide"), name: "Guide Buyer" });
    expect(s.done.status).toBe(200);
    const payment = await db().payment.findFirstOrThrow({ where: { downloadId: DOWNLOAD.guide } });
    expect(payment.amount.toFixed(2)).toBe("9.50");
  });
});

describe("refusals write nothing", () => {
  it("a declined card shows the card's error, keeps the checkout open and creates nothing", async () => {
    const email = freshEmail("course-declined");
    const s = await started({ course: COURSE.writing, email, name: "Declined" });
    const before = await counts();
    const res = await pay(s.hostedPath, "4000000000000002");
    expect(res.status).toBe(402);
    expect(await res.text()).toContain("Your card was declined.");
    expect((await returnTo(s.checkoutId, s.tokenCookie)).status).toBe(409);
    expect(await counts()).toEqual(before);
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: s.checkoutId } })).status).toBe("open");
  });

  it("a tampered or foreign id, a draft course, a hidden download, a course sold with a plan, two items at once, a cross-site post: a clear page, nothing written", async () => {
    const before = await counts();
    const email = freshEmail("course-tamper");
    const unknown = await start({ course: "5c400000-0000-4000-8000-0007000000ff", email, name: "T" });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain(CHECKOUT_COURSE_NOT_FOUND);
    expect((await start({ course: "not-a-uuid", email, name: "T" })).status).toBe(404);
    expect((await start({ course: ACME_COURSE, email, name: "T" })).status).toBe(404);
    // A plan's id sent as a course is no course of the school.
    expect((await start({ course: DEMO_IDS.plans.monthly, email, name: "T" })).status).toBe(404);
    const draft = await start({ course: COURSE.draft, email, name: "T" });
    expect(draft.status).toBe(410);
    expect(await draft.text()).toContain(CHECKOUT_COURSE_CLOSED);
    const hidden = await start({ download: HIDDEN_DOWNLOAD, email, name: "T" });
    expect(hidden.status).toBe(410);
    expect(await hidden.text()).toContain(CHECKOUT_DOWNLOAD_CLOSED);
    const withPlan = await start({ course: PLAN_COURSE, email, name: "T" });
    expect(withPlan.status).toBe(409);
    expect(await withPlan.text()).toContain(CHECKOUT_COURSE_WITH_PLAN);
    const two = await start({ course: COURSE.sql, plan: DEMO_IDS.plans.monthly, email, name: "T" });
    expect(two.status).toBe(404);
    expect(await two.text()).toContain(CHECKOUT_ONE_ITEM);
    expect((await start({ course: COURSE.sql, email, name: "T" }, "", { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" })).status).toBe(403);
    expect((await start({ course: COURSE.sql, email, name: "" })).status).toBe(400);
    // Draft and hidden items have no review page; a course sold with a plan says so.
    expect((await app.fetch("/checkout/courses/advanced-dashboards")).status).toBe(404);
    expect((await app.fetch("/checkout/digital-downloads/hidden-pack")).status).toBe(404);
    expect((await app.fetch("/checkout/courses/no-such-course")).status).toBe(404);
    const planCourse = await app.fetch("/checkout/courses/members-masterclass");
    expect(planCourse.status).toBe(200);
    const planHtml = await planCourse.text();
    expect(planHtml).toContain(CHECKOUT_COURSE_WITH_PLAN);
    expect(planHtml).not.toContain("<form");
    // The domain verb refuses an input naming no item or two.
    const none = await startCheckout({ schoolId: DEMO_IDS.school, input: { email, name: "T" }, member: null, origin: ORIGIN, now: TEST_NOW });
    expect(none.errors).toEqual([CHECKOUT_ONE_ITEM]);
    expect(await counts()).toEqual(before);
  });

  it("a member who is already enrolled is refused before paying; the review page says so", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const first = await buy({ course: COURSE.photo }, cookie);
    expect(first.done.status).toBe(200);
    const before = await counts();
    const again = await start({ course: COURSE.photo }, cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(CHECKOUT_ALREADY_ENROLLED);
    const review = await (await app.fetch("/checkout/courses/product-photography-basics", { headers: { cookie } })).text();
    expect(review).toContain("You are already enrolled in this course.");
    expect(review).not.toContain("<form");
    expect(await counts()).toEqual(before);
  });

  it("two checkouts of one course for one email: the second to complete is refused, all of it rolled back", async () => {
    const email = freshEmail("course-twice");
    const a = await started({ course: COURSE.writing, email, name: "Twice" });
    const b = await started({ course: COURSE.writing, email, name: "Twice" });
    expect((await pay(a.hostedPath, "4242424242424242")).status).toBe(303);
    expect((await pay(b.hostedPath, "4242424242424242")).status).toBe(303);
    expect((await returnTo(a.checkoutId, a.tokenCookie)).status).toBe(200);
    const before = await counts();
    const second = await returnTo(b.checkoutId, b.tokenCookie);
    expect(second.status).toBe(409);
    const html = await second.text();
    expect(html).toContain(CHECKOUT_ALREADY_ENROLLED);
    expect(html).toContain("contact the school for a refund");
    expect(await counts()).toEqual(before);
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: b.checkoutId } })).status).toBe("open");
  });

  it("a course deleted from the content after it was paid: nothing is given or recorded, the page says to ask for a refund", async () => {
    const id = "5c400000-0000-4000-8000-0007000000f4";
    await db().course.create({ data: { id, schoolId: DEMO_IDS.school, slug: "short-lived", title: "Short lived", price: "12.00", currency: "USD" } });
    const s = await started({ course: id, email: freshEmail("deleted"), name: "Deleted" });
    expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(303);
    await db().course.delete({ where: { id } });
    const before = await counts();
    const res = await returnTo(s.checkoutId, s.tokenCookie);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain(CHECKOUT_COURSE_NOT_FOUND);
    expect(html).toContain("contact the school for a refund");
    expect(await counts()).toEqual(before);
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: s.checkoutId } })).status).toBe("open");
  });

  it("an enterprise-training school sells its courses only to its members", async () => {
    const before = await counts();
    const outsider = await startCheckout({ schoolId: DEMO_IDS.acmeSchool, input: { courseId: ACME_COURSE, email: freshEmail("acme-out"), name: "Out" }, member: null, origin: "http://acme.localhost", now: TEST_NOW });
    expect(outsider.errors).toEqual([CHECKOUT_MEMBERS_ONLY]);
    const student = await startCheckout({ schoolId: DEMO_IDS.acmeSchool, input: { courseId: ACME_COURSE }, member: { userId: DEMO_IDS.users.student }, origin: "http://acme.localhost", now: TEST_NOW });
    expect(student.errors).toEqual([CHECKOUT_MEMBERS_ONLY]);
    expect(await counts()).toEqual(before);
    const employee = await startCheckout({ schoolId: DEMO_IDS.acmeSchool, input: { courseId: ACME_COURSE }, member: { userId: DEMO_IDS.users.acmeEmployee }, origin: "http://acme.localhost", now: TEST_NOW });
    expect(employee.errors).toEqual([]);
    const hostedId = new URL(employee.record!.url).pathname.split("/").pop()!;
    expect((await payTestHostedCheckout({ id: hostedId, card: "4242424242424242" })).kind).toBe("paid");
    const done = await completeCheckout({ schoolId: DEMO_IDS.acmeSchool, checkoutId: employee.record!.checkoutId, now: TEST_NOW });
    expect(done.record?.payment).toMatchObject({ courseId: ACME_COURSE, userId: DEMO_IDS.users.acmeEmployee, currency: "EUR" });
  });
});

describe("free items are taken at once by a signed-in member", () => {
  it("a free course: enrolled (no checkout, no payment); a visitor is sent to sign in; twice is refused", async () => {
    const visitor = await start({ course: FREE_COURSE });
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get("location")).toBe(`/login?callbackUrl=${encodeURIComponent("/checkout/courses/free-basics")}`);
    const cookie = await signIn(app, "student@schoolhouse.test");
    const before = await counts();
    const res = await start({ course: FREE_COURSE }, cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/account/courses?done=enrolled");
    expect(await db().enrollment.count({ where: { courseId: FREE_COURSE, userId: DEMO_IDS.users.student } })).toBe(1);
    const after = await counts();
    expect({ checkouts: after.checkouts, payments: after.payments, enrollments: after.enrollments }).toEqual({ checkouts: before.checkouts, payments: before.payments, enrollments: before.enrollments + 1 });
    const enrollment = await db().enrollment.findFirstOrThrow({ where: { courseId: FREE_COURSE, userId: DEMO_IDS.users.student } });
    expect(await eventTypesOf(enrollment.id)).toEqual(["enrollment.created"]);
    const again = await start({ course: FREE_COURSE }, cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(CHECKOUT_ALREADY_ENROLLED);
    expect((await counts()).enrollments).toBe(after.enrollments);
  });

  it("a free download: its access (no payment); twice is refused", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const review = await (await app.fetch("/checkout/digital-downloads/sql-cheat-sheet", { headers: { cookie } })).text();
    expect(review).toContain("Get it now");
    const res = await start({ download: DOWNLOAD.free }, cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/account/courses?done=download_added");
    const access = await db().downloadAccess.findUniqueOrThrow({ where: { downloadId_userId: { downloadId: DOWNLOAD.free, userId: DEMO_IDS.users.student } } });
    expect(access.paymentId).toBeNull();
    const again = await start({ download: DOWNLOAD.free }, cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(CHECKOUT_ALREADY_OWNED);
  });
});

describe("refunds of a one-time purchase", () => {
  it("refundPayment refunds it (payment.refunded, the refund mail naming the course); the enrollment stays", async () => {
    const email = freshEmail("course-refund");
    const s = await buy({ course: COURSE.sql, email, name: "Refund Buyer" });
    expect(s.done.status).toBe(200);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const payment = await db().payment.findFirstOrThrow({ where: { userId: user.id } });
    const r = await gql(app, `mutation R($input: AdminRefundPaymentInput!) { refundPayment(input: $input) { errors payment { ${PAYMENT_FIELDS} courseId } } }`, { input: { paymentId: payment.id } });
    expect(r.body.data.refundPayment).toMatchObject({ errors: [], payment: { state: "refunded", refundedAmount: "49.00", subscriptionId: null, courseId: COURSE.sql } });
    expect(await eventTypesOf(payment.id)).toEqual(["payment.succeeded", "payment.refunded"]);
    expect(await db().enrollment.count({ where: { userId: user.id, courseId: COURSE.sql } })).toBe(1);
    const mail = await db().mailMessage.findFirstOrThrow({ where: { to: email, kind: "payment-refunded" } });
    expect(mail.params).toMatchObject({ item: "Intro to SQL", itemKind: "course", refundedAmount: "49.00" });
  });
});
