// Checkout on the storefront (docs/decisions.md, "Billing", "Checkout"): the review page, startCheckout
// through POST /api/checkout, the test provider's hosted page, and completeCheckout through the
// return page; price from the content, single use, refusals that write nothing. PGlite, and Postgres
// with TEST_DATABASE_URL.
import { afterEach, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { completeCheckout } from "@/lib/billing/complete-checkout";
import { startCheckout } from "@/lib/billing/start-checkout";
import { payTestHostedCheckout } from "@/lib/billing/test-provider";
import { CHECKOUT_ALREADY_MEMBER, CHECKOUT_MEMBERS_ONLY, CHECKOUT_PLAN_CLOSED, CHECKOUT_PLAN_NOT_FOUND } from "@/lib/billing/checkout-rules";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn } from "../oauth/helpers";
import { TEST_NOW, freshEmail } from "../admin-api/helpers";
import { billingEventsOf, checkoutClient } from "./helpers";

const TRIAL_PLAN = "5c400000-0000-4000-8000-0000000003a1";
const ACME_PAID_PLAN = "5c400000-0000-4000-8000-0000000003a2";
const ORIGIN = "http://demo.localhost";
const app = appForSuite({
  host: "demo.localhost",
  now: TEST_NOW,
  prepare: async () => {
    await db().membershipPlan.upsert({
      where: { id: TRIAL_PLAN },
      create: { id: TRIAL_PLAN, schoolId: DEMO_IDS.school, slug: "trial-monthly", name: "Monthly with a trial", planType: "recurring", interval: "month", price: "19.00", currency: "USD", trialDays: 14 },
      update: {},
    });
    await db().membershipPlan.upsert({
      where: { id: ACME_PAID_PLAN },
      create: { id: ACME_PAID_PLAN, schoolId: DEMO_IDS.acmeSchool, slug: "acme-paid", name: "Acme paid", planType: "lifetime", price: "99.00", currency: "USD" },
      update: {},
    });
  },
});
afterEach(() => setNow(TEST_NOW));

const { FORM, start, started, pay, returnTo } = checkoutClient(app, ORIGIN);

const counts = async () => ({
  checkouts: await db().checkoutSession.count(),
  subscriptions: await db().subscription.count(),
  users: await db().user.count(),
  payments: await db().payment.count(),
});

describe("a visitor buys the monthly plan", () => {
  it("review page, hosted page, 4242: an account, an active subscription paid at the content's price, events, mails, signed in", async () => {
    const review = await app.fetch("/checkout/plans/monthly");
    expect(review.status).toBe(200);
    const html = await review.text();
    expect(html).toContain("29.00");
    expect(html).toContain("Prices include no tax; coupons are not available.");

    const email = freshEmail("buyer");
    // A price in the form is ignored: the checkout copies the plan's.
    const s = await started({ plan: DEMO_IDS.plans.monthly, email, name: "New Buyer", price: "0.01", amount: "0.01" });
    const row = await db().checkoutSession.findUniqueOrThrow({ where: { id: s.checkoutId } });
    expect(row).toMatchObject({ amount: expect.anything(), currency: "USD", status: "open", userId: null, email });
    expect(row.amount.toFixed(2)).toBe("29.00");

    const hosted = await app.fetch(s.hostedPath);
    expect(hosted.status).toBe(200);
    const page = await hosted.text();
    expect(page).toContain("Test mode");
    expect(page).toContain("29.00");

    const paid = await pay(s.hostedPath, "4242 4242 4242 4242");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`${ORIGIN}/checkout/complete/${s.checkoutId}`);

    const done = await returnTo(s.checkoutId, s.tokenCookie);
    expect(done.status).toBe(200);
    expect(done.headers.get("set-cookie")).toMatch(/authjs\.session-token=/);
    const confirmation = await done.text();
    expect(confirmation).toContain("Checkout complete");
    expect(confirmation).toMatch(/href="\/account\/payments\/[0-9a-f-]{36}"/);

    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const sub = await db().subscription.findFirstOrThrow({ where: { userId: user.id }, include: { payments: true } });
    expect(sub).toMatchObject({ planId: DEMO_IDS.plans.monthly, state: "active", collectionMethod: "charge_automatically", paymentMethodId: "pm_card_visa" });
    expect(sub.payments).toHaveLength(1);
    expect(sub.payments[0]).toMatchObject({ state: "succeeded", billingReason: "subscription_create", provider: "test" });
    expect(sub.payments[0]!.amount.toFixed(2)).toBe("29.00");
    expect(sub.payments[0]!.providerPaymentId).toMatch(/^pi_test_/);
    expect(await billingEventsOf(sub.id)).toEqual(["subscription.created", "payment.succeeded"]);
    const mails = (await db().mailMessage.findMany({ where: { to: email } })).map((m) => m.kind).sort();
    expect(mails).toEqual(["purchase-receipt", "verify-email", "welcome"]);
    expect(await db().memberSession.count({ where: { userId: user.id, origin: ORIGIN } })).toBe(1);
  });

  it("a reused return (and a second completeCheckout) creates nothing twice", async () => {
    const email = freshEmail("reuse");
    const s = await started({ plan: DEMO_IDS.plans.monthly, email, name: "Reuse Buyer" });
    await pay(s.hostedPath, "4242424242424242");
    expect((await returnTo(s.checkoutId, s.tokenCookie)).status).toBe(200);
    const before = await counts();
    expect((await returnTo(s.checkoutId, s.tokenCookie)).status).toBe(200);
    const again = await completeCheckout({ schoolId: DEMO_IDS.school, checkoutId: s.checkoutId, now: TEST_NOW });
    expect(again.errors).toEqual([]);
    // Paying the hosted page again is refused: it is complete.
    expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(409);
    expect(await counts()).toEqual(before);
    // Another school's id for the same checkout: not found.
    expect((await completeCheckout({ schoolId: DEMO_IDS.acmeSchool, checkoutId: s.checkoutId, now: TEST_NOW })).errors).toEqual(["Checkout not found"]);
  });

  it("another browser's return completes but signs nobody in and shows nothing of the purchase", async () => {
    const email = freshEmail("other");
    const s = await started({ plan: DEMO_IDS.plans.monthly, email, name: "Other Browser" });
    await pay(s.hostedPath, "4242424242424242");
    const res = await returnTo(s.checkoutId);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).not.toContain(email);
    expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
  });
});

describe("refusals write nothing", () => {
  it("a declined card shows the card's error, keeps the checkout open and creates nothing; a good card then completes it", async () => {
    const email = freshEmail("declined");
    const s = await started({ plan: DEMO_IDS.plans.monthly, email, name: "Declined Buyer" });
    const before = await counts();
    const res = await pay(s.hostedPath, "4000000000000002");
    expect(res.status).toBe(402);
    const html = await res.text();
    expect(html).toContain("Your card was declined.");
    expect(html).toContain("Test mode");
    const notPaid = await returnTo(s.checkoutId, s.tokenCookie);
    expect(notPaid.status).toBe(409);
    expect(await counts()).toEqual(before);
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: s.checkoutId } })).status).toBe("open");
    expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(303);
    expect((await returnTo(s.checkoutId, s.tokenCookie)).status).toBe(200);
    expect((await db().subscription.findFirstOrThrow({ where: { user: { email } } })).state).toBe("active");
  });

  it("a tampered plan id, another school's plan, a closed plan, a cross-site post: a clear page, nothing written", async () => {
    const before = await counts();
    const email = freshEmail("tamper");
    const bad = await start({ plan: "5c400000-0000-4000-8000-0000000003ff", email, name: "T" });
    expect(bad.status).toBe(404);
    expect(await bad.text()).toContain(CHECKOUT_PLAN_NOT_FOUND);
    expect((await start({ plan: "not-a-uuid", email, name: "T" })).status).toBe(404);
    expect((await start({ plan: DEMO_IDS.plans.acmeAnnual, email, name: "T" })).status).toBe(404);
    const closed = await start({ plan: DEMO_IDS.plans.legacyAnnual, email, name: "T" });
    expect(closed.status).toBe(410);
    expect(await closed.text()).toContain(CHECKOUT_PLAN_CLOSED);
    const crossSite = await start({ plan: DEMO_IDS.plans.monthly, email, name: "T" }, "", { ...FORM, origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const noName = await start({ plan: DEMO_IDS.plans.monthly, email, name: "" });
    expect(noName.status).toBe(400);
    expect((await app.fetch("/checkout/plans/legacy-annual")).status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it("a member who already has the plan is refused before paying", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const first = await started({ plan: DEMO_IDS.plans.lifetime }, cookie);
    await pay(first.hostedPath, "4242424242424242");
    expect((await returnTo(first.checkoutId, `${cookie}; ${first.tokenCookie}`)).status).toBe(200);
    const before = await counts();
    const again = await start({ plan: DEMO_IDS.plans.lifetime }, cookie);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(CHECKOUT_ALREADY_MEMBER);
    expect(await counts()).toEqual(before);
  });

  it("an existing account's email buys without being signed in as it", async () => {
    const s = await started({ plan: DEMO_IDS.plans.bootcamp, email: "multi@schoolhouse.test", name: "" });
    await pay(s.hostedPath, "4242424242424242");
    const res = await returnTo(s.checkoutId, s.tokenCookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain("Sign in as multi@schoolhouse.test");
  });

  it("an enterprise-training school sells only to its members", async () => {
    const before = await counts();
    const refused = await startCheckout({ schoolId: DEMO_IDS.acmeSchool, input: { planId: ACME_PAID_PLAN, email: freshEmail("outsider"), name: "Out Sider" }, member: null, origin: "http://acme.localhost", now: TEST_NOW });
    expect(refused.errors).toEqual([CHECKOUT_MEMBERS_ONLY]);
    // A signed-in account that is not a member there is refused the same way.
    const outsider = await startCheckout({ schoolId: DEMO_IDS.acmeSchool, input: { planId: ACME_PAID_PLAN }, member: { userId: DEMO_IDS.users.student }, origin: "http://acme.localhost", now: TEST_NOW });
    expect(outsider.errors).toEqual([CHECKOUT_MEMBERS_ONLY]);
    const employee = await startCheckout({ schoolId: DEMO_IDS.acmeSchool, input: { planId: ACME_PAID_PLAN }, member: { userId: DEMO_IDS.users.acmeEmployee }, origin: "http://acme.localhost", now: TEST_NOW });
    expect(employee.errors).toEqual([]);
    expect((await counts()).checkouts).toBe(before.checkouts + 1);
  });
});

describe("a signed-in account that is not yet a member here", () => {
  it("joins the school with the purchase (member.created, welcome mail), in the completing transaction", async () => {
    const userId = DEMO_IDS.users.acmeEmployee;
    expect(await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: DEMO_IDS.school, userId } } })).toBeNull();
    const started = await startCheckout({ schoolId: DEMO_IDS.school, input: { planId: DEMO_IDS.plans.monthly }, member: { userId }, origin: ORIGIN, now: TEST_NOW });
    expect(started.errors).toEqual([]);
    const hostedId = new URL(started.record!.url).pathname.split("/").pop()!;
    expect((await payTestHostedCheckout({ id: hostedId, card: "4242424242424242" })).kind).toBe("paid");
    const done = await completeCheckout({ schoolId: DEMO_IDS.school, checkoutId: started.record!.checkoutId, now: TEST_NOW });
    expect(done.record?.subscription).toMatchObject({ userId, state: "active" });
    expect(done.record?.checkout.accountCreated).toBe(false);
    expect(await db().schoolMembership.findUnique({ where: { schoolId_userId: { schoolId: DEMO_IDS.school, userId } } })).not.toBeNull();
  });
});

describe("a trial plan", () => {
  it("saves the card (nothing due today) and starts trialing until the trial's end", async () => {
    const email = freshEmail("trial");
    const s = await started({ plan: TRIAL_PLAN, email, name: "Trial Buyer" });
    const hosted = await (await app.fetch(s.hostedPath)).text();
    expect(hosted).toContain("Save card and start trial");
    expect((await pay(s.hostedPath, "4000000000000002")).status).toBe(402);
    expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(303);
    expect((await returnTo(s.checkoutId, s.tokenCookie)).status).toBe(200);
    const sub = await db().subscription.findFirstOrThrow({ where: { user: { email } }, include: { payments: true } });
    const trialEnd = new Date(TEST_NOW.getTime() + 14 * 86_400_000);
    expect(sub).toMatchObject({ state: "trialing", currentPeriodEnd: trialEnd, nextChargeDate: trialEnd, paymentMethodId: "pm_card_visa" });
    expect(sub.payments).toEqual([]);
  });
});
