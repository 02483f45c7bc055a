import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { memberPayment, memberPayments, memberSessions, memberSubscriptions } from "@/lib/account/queries";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { renderMail } from "@/lib/mail/render";
import { MAIL_TEMPLATES } from "@/lib/mail/templates";
import { RETRY_DELAYS_MS } from "@/lib/billing/schedule";
import { createSubscription } from "@/lib/membership/create-subscription";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { csrf, signIn, tokensFor } from "../oauth/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// The account forms (POST /api/account/<action>, lib/account/forms.ts): the member's own rows at
// the host's school only, the CSRF double-submit token, the membership verbs' rules and events,
// and every form safe to submit twice.
const app = appForSuite({ host: "demo.localhost" });
afterEach(() => setNow(null));

let student: string;
let studentCsrf: string;
let multi: string;
let multiCsrf: string;
let studentSub: string;
let multiSub: string;

async function withCsrf(cookie: string) {
  const c = await csrf(app, cookie);
  return { cookie: c.cookie, token: c.token };
}

function post(action: string, cookie: string, fields: Record<string, string>) {
  return app.fetch(`/api/account/${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const events = (subjectId: string) => db().webhookEvent.findMany({ where: { subjectId }, orderBy: { createdAt: "asc" }, select: { type: true } });

beforeAll(async () => {
  ({ cookie: student, token: studentCsrf } = await withCsrf(await signIn(app, "student@schoolhouse.test")));
  ({ cookie: multi, token: multiCsrf } = await withCsrf(await signIn(app, "multi@schoolhouse.test")));
  const plan = await db().membershipPlan.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, planType: "recurring" } });
  const make = async (email: string) => (await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email, planId: plan.id }, now: new Date() })).record!.id;
  studentSub = await make("student@schoolhouse.test");
  multiSub = await make("multi@schoolhouse.test");
});

describe("who may post", () => {
  it("sends a visitor without a session to the login page, changing nothing", async () => {
    const res = await post("profile", "", { name: "Nobody" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login?callbackUrl=%2Faccount");
  });

  it("refuses a form without the CSRF token of this browser (403, nothing changed)", async () => {
    for (const token of ["", "forged", multiCsrf]) {
      const res = await post("profile", student, { csrfToken: token, name: "Forged Name" });
      expect(res.status).toBe(403);
    }
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).name).toBe("Jamie Lee");
  });

  it("answers 403 to a signed-in account of another school", async () => {
    const acme = await withCsrf(await signIn(app, "employee@schoolhouse.test"));
    const res = await post("profile", acme.cookie, { csrfToken: acme.token, name: "Intruder" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("not a member of Schoolhouse Demo Academy");
  });

  it("answers 404 to an unknown action and 415 to a body that is not a form", async () => {
    expect((await post("delete-everything", student, { csrfToken: studentCsrf })).status).toBe(404);
    const json = await app.fetch("/api/account/profile", { method: "POST", headers: { "content-type": "application/json", cookie: student }, body: "{}" });
    expect(json.status).toBe(415);
  });
});

describe("profile", () => {
  it("saves the name (trimmed), refuses an empty one", async () => {
    const ok = await post("profile", student, { csrfToken: studentCsrf, name: "  Jamie   Q. Lee " });
    expect(ok.headers.get("location")).toBe("/account?done=name");
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).name).toBe("Jamie Q. Lee");
    const bad = await post("profile", student, { csrfToken: studentCsrf, name: "   " });
    expect(bad.headers.get("location")).toBe("/account?error=name");
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).name).toBe("Jamie Q. Lee");
    await db().user.update({ where: { id: DEMO_IDS.users.student }, data: { name: "Jamie Lee" } });
  });
});

describe("email", () => {
  const studentRow = () => db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student }, select: { email: true, emailVerified: true } });
  const changedNotices = () => db().mailMessage.findMany({ where: { kind: "email-changed", userId: DEMO_IDS.users.student } });
  const verifyMails = (to: string) => db().mailMessage.findMany({ where: { kind: "verify-email", to }, select: { userId: true, schoolId: true, status: true } });

  it("needs the current password; a new email is unverified and mailed a link in the same change; a double submit is not an error", async () => {
    const wrong = await post("email", student, { csrfToken: studentCsrf, email: "jamie.new@schoolhouse.test", current: "not-my-password" });
    expect(wrong.headers.get("location")).toBe("/account?error=wrong_password");
    expect(await studentRow()).toEqual({ email: "student@schoolhouse.test", emailVerified: true });
    expect(await verifyMails("jamie.new@schoolhouse.test")).toEqual([]);
    expect(await changedNotices()).toEqual([]);

    const fields = { csrfToken: studentCsrf, email: "  Jamie.New@Schoolhouse.test ", current: "schoolhouse-demo" };
    const ok = await post("email", student, fields);
    expect(ok.headers.get("location")).toBe("/account?done=email");
    expect(await studentRow()).toEqual({ email: "jamie.new@schoolhouse.test", emailVerified: false });
    expect(await verifyMails("jamie.new@schoolhouse.test")).toEqual([{ userId: DEMO_IDS.users.student, schoolId: DEMO_IDS.school, status: "pending" }]);
    // The previous address is told, in the same change (same time as the verification mail).
    const notices = await changedNotices();
    expect(notices).toEqual([expect.objectContaining({ to: "student@schoolhouse.test", userId: DEMO_IDS.users.student, params: { newEmail: "jamie.new@schoolhouse.test" } })]);
    const verify = await db().mailMessage.findFirstOrThrow({ where: { kind: "verify-email", to: "jamie.new@schoolhouse.test" } });
    expect(notices[0]!.createdAt).toEqual(verify.createdAt);
    const school = await db().school.findUniqueOrThrow({ where: { id: DEMO_IDS.school } });
    const content = await db().$transaction((tx) =>
      MAIL_TEMPLATES["email-changed"].render({ tx, school: { ...school, origin: "http://demo.localhost" }, to: notices[0]!.to, user: null, params: notices[0]!.params as Record<string, unknown>, now: new Date() }),
    );
    const mail = renderMail(content!, school);
    expect(mail.text).toContain("was changed from student@schoolhouse.test to jamie.new@schoolhouse.test");
    expect(mail.text).toContain("If this wasn't you");
    // Submitted twice: done, and no second mail.
    expect((await post("email", student, fields)).headers.get("location")).toBe("/account?done=email");
    expect(await verifyMails("jamie.new@schoolhouse.test")).toHaveLength(1);
    expect(await changedNotices()).toHaveLength(1);
    // Back to the demo email for the other tests.
    await db().user.update({ where: { id: DEMO_IDS.users.student }, data: { email: "student@schoolhouse.test", emailVerified: true } });
  });

  it("refuses an email of another account (any case) or not an email, changing nothing and mailing nothing", async () => {
    for (const [email, error] of [
      ["multi@schoolhouse.test", "email_taken"],
      ["MULTI@schoolhouse.test", "email_taken"],
      ["not an email", "invalid_email"],
      ["", "invalid_email"],
    ]) {
      const res = await post("email", student, { csrfToken: studentCsrf, email: email!, current: "schoolhouse-demo" });
      expect(res.headers.get("location")).toBe(`/account?error=${error}`);
    }
    expect(await studentRow()).toEqual({ email: "student@schoolhouse.test", emailVerified: true });
    expect(await verifyMails("multi@schoolhouse.test")).toEqual([]);
    expect(await db().mailMessage.count({ where: { kind: "email-changed", userId: DEMO_IDS.users.student, createdAt: { gt: new Date(Date.now() - 60_000) }, params: { equals: { newEmail: "multi@schoolhouse.test" } } } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.multiRole } })).email).toBe("multi@schoolhouse.test");
  });
});

describe("password", () => {
  it("counts wrong current passwords in the login throttle: past five, even the right one waits (nothing changed)", async () => {
    setNow(new Date("2026-12-01T10:00:00Z"));
    const before = (await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.multiRole } })).passwordHash;
    const attempt = (current: string) => post("password", multi, { csrfToken: multiCsrf, current, password: "a-brand-new-password", confirm: "a-brand-new-password" });
    for (let i = 0; i < 5; i++) expect((await attempt(`guess-${i}`)).headers.get("location")).toBe("/account?error=wrong_password");
    expect((await attempt("schoolhouse-demo")).headers.get("location")).toBe("/account?error=throttled");
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.multiRole } })).passwordHash).toBe(before);
    await db().loginThrottle.deleteMany({ where: { key: "account:multi@schoolhouse.test" } });
  });

  it("needs the current password; a new one ends the other sessions only; a double submit is not an error", async () => {
    const other = await signIn(app, "student@schoolhouse.test");
    const before = (await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).passwordHash;
    const wrong = await post("password", student, { csrfToken: studentCsrf, current: "not-my-password", password: "a-brand-new-password", confirm: "a-brand-new-password" });
    expect(wrong.headers.get("location")).toBe("/account?error=wrong_password");
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).passwordHash).toBe(before);
    const mismatch = await post("password", student, { csrfToken: studentCsrf, current: "schoolhouse-demo", password: "a-brand-new-password", confirm: "another-new-password" });
    expect(mismatch.headers.get("location")).toBe("/account?error=mismatch");
    const short = await post("password", student, { csrfToken: studentCsrf, current: "schoolhouse-demo", password: "short", confirm: "short" });
    expect(short.headers.get("location")).toBe("/account?error=weak_password");

    const fields = { csrfToken: studentCsrf, current: "schoolhouse-demo", password: "a-brand-new-password", confirm: "a-brand-new-password" };
    expect((await post("password", student, fields)).headers.get("location")).toBe("/account?done=password");
    // The other browser is signed out; this one is not.
    expect((await post("profile", other, { csrfToken: studentCsrf, name: "x" })).status).toBe(303);
    expect((await post("profile", other, { csrfToken: studentCsrf, name: "x" })).headers.get("location")).toMatch(/^\/login/);
    const after = (await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).passwordHash;
    expect(after).not.toBe(before);
    // Submitted twice: the work is done, nothing changes again.
    expect((await post("password", student, fields)).headers.get("location")).toBe("/account?done=password");
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.student } })).passwordHash).toBe(after);
    // Back to the demo password for the other tests.
    await post("password", student, { csrfToken: studentCsrf, current: "a-brand-new-password", password: "schoolhouse-demo", confirm: "schoolhouse-demo" });
  });
});

describe("memberships", () => {
  it("cancels at period end, undoes it, each once however often submitted, with the Admin API's events", async () => {
    const cancel = () => post("cancel", student, { csrfToken: studentCsrf, subscription: studentSub });
    expect((await cancel()).headers.get("location")).toBe("/account/memberships?done=canceling");
    expect((await cancel()).headers.get("location")).toBe("/account/memberships?done=canceling");
    let sub = await db().subscription.findUniqueOrThrow({ where: { id: studentSub } });
    // A second submit did not turn the scheduled cancellation into an immediate one.
    expect(sub.state).toBe("active");
    expect(sub.cancelAt).not.toBeNull();
    expect(sub.nextChargeDate).toBeNull();

    const keep = () => post("keep", student, { csrfToken: studentCsrf, subscription: studentSub });
    expect((await keep()).headers.get("location")).toBe("/account/memberships?done=kept");
    expect((await keep()).headers.get("location")).toBe("/account/memberships?done=kept");
    sub = await db().subscription.findUniqueOrThrow({ where: { id: studentSub } });
    expect(sub.cancelAt).toBeNull();
    expect(sub.nextChargeDate?.toISOString()).toBe(sub.currentPeriodEnd?.toISOString());
    expect((await events(studentSub)).map((e) => e.type)).toEqual(["subscription.created", "subscription.canceling", "subscription.updated"]);
  });

  it("answers 404 for another member's subscription, whoever asks (staff included), and changes nothing", async () => {
    const owner = await withCsrf(await signIn(app, "owner@schoolhouse.test"));
    for (const [cookie, token] of [
      [student, studentCsrf],
      [owner.cookie, owner.token],
    ] as const) {
      for (const action of ["cancel", "keep"]) {
        const res = await post(action, cookie, { csrfToken: token, subscription: multiSub });
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain("Rin");
      }
    }
    expect((await post("cancel", student, { csrfToken: studentCsrf, subscription: "not-a-uuid" })).status).toBe(404);
    const sub = await db().subscription.findUniqueOrThrow({ where: { id: multiSub } });
    expect(sub.cancelAt).toBeNull();
    expect((await events(multiSub)).map((e) => e.type)).toEqual(["subscription.created"]);
  });

  it("says the verb's own message when the rule refuses (a lifetime plan is not cancellable)", async () => {
    const lifetime = await db().membershipPlan.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, planType: "lifetime" } });
    const { record } = await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "multi@schoolhouse.test", planId: lifetime.id }, now: new Date() });
    const res = await post("cancel", multi, { csrfToken: multiCsrf, subscription: record!.id });
    expect(res.headers.get("location")).toBe("/account/memberships?error=not_cancellable");
  });
});

describe("payment method", () => {
  it("saves a card; while past_due pays the overdue period at once, or says the decline and keeps the retry date", async () => {
    const plans = await db().membershipPlan.findMany({ where: { schoolId: DEMO_IDS.school, planType: "recurring" }, orderBy: { price: "desc" } });
    const taken = new Set((await db().subscription.findMany({ where: { userId: DEMO_IDS.users.multiRole } })).map((x) => x.planId));
    const plan = plans.find((p) => !taken.has(p.id))!;
    const created = await createSubscription({
      actor: TEST_ACTOR,
      schoolId: DEMO_IDS.school,
      input: { email: "multi@schoolhouse.test", planId: plan.id, collectionMethod: "charge_automatically", paymentMethod: "4000000000000341" },
      now: new Date(),
    });
    const id = created.record!.id;
    const pm = (card: string, cookie = multi, token = multiCsrf) => post("payment-method", cookie, { csrfToken: token, subscription: id, card });
    // Another member's form for it: 404, nothing saved.
    expect((await pm("4242424242424242", student, studentCsrf)).status).toBe(404);
    expect((await pm("4111111111111111")).headers.get("location")).toBe("/account/memberships?error=card_unknown");
    expect((await db().subscription.findUniqueOrThrow({ where: { id } })).paymentMethodId).toBe("pm_card_chargeCustomerFail");

    const end = created.record!.currentPeriodEnd!;
    // The renewal at the period end is declined (the member's session lives in real time: the clock stays).
    await renewDueSubscriptions({ now: end });
    const due = (await db().subscription.findUniqueOrThrow({ where: { id } })).nextChargeDate;
    expect(due?.getTime()).toBe(end.getTime() + RETRY_DELAYS_MS[0]!);

    expect((await pm("4000000000000002")).headers.get("location")).toBe("/account/memberships?error=card_declined");
    let sub = await db().subscription.findUniqueOrThrow({ where: { id } });
    expect(sub).toMatchObject({ state: "past_due", nextChargeDate: due, paymentMethodId: "pm_card_chargeDeclined" });
    const shown = (await memberSubscriptions({ schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.multiRole, now: new Date() })).find((x) => x.id === id)!;
    expect(shown).toMatchObject({ canUpdatePaymentMethod: true, lastDecline: "Your card was declined." });

    expect((await pm("4242 4242 4242 4242")).headers.get("location")).toBe("/account/memberships?done=card_paid");
    sub = await db().subscription.findUniqueOrThrow({ where: { id } });
    expect(sub).toMatchObject({ state: "active", paymentMethodId: "pm_card_visa" });
    // Submitted again: saved, nothing more to pay.
    expect((await pm("4242424242424242")).headers.get("location")).toBe("/account/memberships?done=card_saved");
    expect(await db().payment.count({ where: { subscriptionId: id, state: "succeeded" } })).toBe(2);
  });
});

describe("sessions", () => {
  it("signs out one other session of the member, or all others; another member's session id is a 404", async () => {
    const second = await signIn(app, "multi@schoolhouse.test");
    const third = await signIn(app, "multi@schoolhouse.test");
    const sessions = await db().memberSession.findMany({ where: { userId: DEMO_IDS.users.multiRole, revokedAt: null }, orderBy: { createdAt: "asc" } });
    const studentSession = await db().memberSession.findFirstOrThrow({ where: { userId: DEMO_IDS.users.student, revokedAt: null } });
    expect((await post("end-session", multi, { csrfToken: multiCsrf, session: studentSession.id })).status).toBe(404);
    expect((await db().memberSession.findUniqueOrThrow({ where: { id: studentSession.id } })).revokedAt).toBeNull();

    const target = sessions.at(-1)!;
    const res = await post("end-session", multi, { csrfToken: multiCsrf, session: target.id });
    expect(res.headers.get("location")).toBe("/account/sessions?done=session_ended");
    // Twice: already ended, not an error.
    expect((await post("end-session", multi, { csrfToken: multiCsrf, session: target.id })).headers.get("location")).toBe("/account/sessions?done=session_ended");
    expect((await post("profile", third, { csrfToken: multiCsrf, name: "x" })).headers.get("location")).toMatch(/^\/login/);

    expect((await post("end-other-sessions", multi, { csrfToken: multiCsrf })).headers.get("location")).toBe("/account/sessions?done=others_ended");
    expect((await post("profile", second, { csrfToken: multiCsrf, name: "x" })).headers.get("location")).toMatch(/^\/login/);
    // This browser stays signed in.
    expect((await post("profile", multi, { csrfToken: multiCsrf, name: "Rin Takeda" })).headers.get("location")).toBe("/account?done=name");
  });
});

describe("connected apps", () => {
  it("revokes the member's grant and its tokens at once; an app never connected is a 404", async () => {
    const tokens = await tokensFor(app, multi, { scope: "openid profile" });
    const userinfo = () => app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect((await userinfo()).status).toBe(200);
    expect((await post("revoke-app", student, { csrfToken: studentCsrf, client: "demo-confidential-app" })).status).toBe(404);
    expect((await userinfo()).status).toBe(200);

    const res = await post("revoke-app", multi, { csrfToken: multiCsrf, client: "demo-public-app" });
    expect(res.headers.get("location")).toBe("/account/apps?done=revoked");
    expect((await userinfo()).status).toBe(401);
    expect(await db().oAuthGrant.count({ where: { userId: DEMO_IDS.users.multiRole, clientId: "demo-public-app", revokedAt: null } })).toBe(0);
    // Twice: nothing left to revoke, not an error.
    expect((await post("revoke-app", multi, { csrfToken: multiCsrf, client: "demo-public-app" })).headers.get("location")).toBe("/account/apps?done=revoked");
  });
});

describe("what the pages read", () => {
  it("payments: only the member's own at this school; someone else's id finds nothing", async () => {
    const mine = await db().payment.create({ data: { schoolId: DEMO_IDS.school, subscriptionId: studentSub, amount: "19.00", currency: "USD", state: "succeeded", paidAt: new Date() } });
    const theirs = await db().payment.create({ data: { schoolId: DEMO_IDS.school, subscriptionId: multiSub, amount: "19.00", currency: "USD", state: "succeeded", paidAt: new Date() } });
    const studentMember = { schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.student };
    expect((await memberPayments(studentMember)).map((p) => p.id)).toEqual([mine.id]);
    expect((await memberPayment({ ...studentMember, id: mine.id }))?.subscription?.plan.name).toBeTruthy();
    expect(await memberPayment({ ...studentMember, id: theirs.id })).toBeNull();
    expect(await memberPayment({ ...studentMember, id: "not-a-uuid" })).toBeNull();
    // The same member at another school sees none of this school's payments.
    expect(await memberPayments({ schoolId: DEMO_IDS.acmeSchool, userId: DEMO_IDS.users.student })).toEqual([]);
  });

  it("sessions: this origin's live sessions of the member, this one first, with a device hint from the sign-in's User-Agent", async () => {
    const c = await csrf(app);
    const body = new URLSearchParams({ csrfToken: c.token, callbackUrl: "/", email: "reviewer@schoolhouse.test", password: "schoolhouse-demo" });
    const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
    await app.fetch("/api/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", cookie: c.cookie, "user-agent": ua }, body, redirect: "manual" });
    await signIn(app, "reviewer@schoolhouse.test");
    const rows = await db().memberSession.findMany({ where: { userId: DEMO_IDS.users.reviewer, revokedAt: null }, orderBy: { createdAt: "asc" } });
    expect(rows[0]!.userAgent).toBe(ua);
    const listed = await memberSessions({ userId: DEMO_IDS.users.reviewer, origin: "http://demo.localhost", currentSessionId: rows[1]!.id, now: new Date() });
    expect(listed.map((s) => [s.current, s.device])).toEqual([
      [true, expect.any(String)],
      [false, "Firefox on Windows"],
    ]);
    expect(await memberSessions({ userId: DEMO_IDS.users.reviewer, origin: "http://acme-training.localhost", currentSessionId: rows[1]!.id, now: new Date() })).toEqual([]);
  });
});
