// The mail outbox end to end against a real SMTP server the test starts (tests/helpers/smtp-inbox().ts):
// new members' mails written with the change and sent once, verification and password reset through
// their links, the school's settings, header injection, retries and the outbox folder without MAIL_URL.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { drainMail } from "@/lib/mail/deliver";
import { listFiledMail } from "@/lib/mail/outbox-folder";
import { now } from "@/lib/clock";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { addMember } from "@/lib/schools/add-member";
import { CREATE, PLANS, TEST_NOW, freshEmail, gql } from "../admin-api/helpers";
import { CARDS, subscribeWithCard } from "../billing/helpers";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn, tokensFor } from "../oauth/helpers";
import { headersOf, linkIn, partOf } from "../../helpers/smtp-inbox";
import { smtpInboxForSuite } from "../../helpers/suite-env";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = appForSuite({ host: "demo.localhost", now: TEST_NOW });
const inbox = smtpInboxForSuite();
const drain = () => drainMail({ now, budgetMs: 20_000, log: () => {} });
const mailsTo = (email: string) => inbox().mails.filter((m) => m.to.includes(email));
const header = (raw: string, name: string) => headersOf(raw).filter(([k]) => k === name).map(([, v]) => v);
const kindOf = (raw: string) => header(raw, "x-schoolhouse-mail")[0];

beforeEach(async () => {
  // Mails other tests' members left behind are not this test's.
  await db().mailMessage.deleteMany({});
  await db().school.updateMany({ data: { mailDisabled: [] } });
  inbox().refuseWith = null;
});

async function newMember(tag: string, headers: Record<string, string> = {}) {
  const email = freshEmail(tag);
  const r = await gql(app, CREATE, { input: { email, name: "Mail Person", planId: PLANS.monthly } }, { headers });
  expect(r.body.data.createSubscription.errors).toEqual([]);
  return email;
}

async function csrf() {
  const res = await app.fetch("/api/auth/csrf-cookie?callbackUrl=/login/forgot");
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("authjs.csrf-token="))!.split(";")[0]!;
  return { cookie, token: decodeURIComponent(cookie.split("=")[1]!).split("|")[0]! };
}

const postForm = (pathname: string, fields: Record<string, string>, cookie?: string) =>
  app.fetch(pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });

describe("mail through SMTP", () => {
  it("a new member gets welcome and verification, sent once, from the school, in text and HTML", async () => {
    const key = `mail-${Date.now()}`;
    const email = freshEmail("welcome");
    const input = { input: { email, name: "Mail Person", planId: PLANS.monthly } };
    await gql(app, CREATE, input, { headers: { "idempotency-key": key } });
    // The client retries the same request: the stored answer, no second member, no second mail.
    await gql(app, CREATE, input, { headers: { "idempotency-key": key } });
    expect(await db().mailMessage.count({ where: { to: email } })).toBe(2);
    await drain();
    await drain();
    const got = mailsTo(email);
    expect(got.map((m) => kindOf(m.raw)).sort()).toEqual(["verify-email", "welcome"]);
    const welcome = got.find((m) => kindOf(m.raw) === "welcome")!;
    expect(welcome.from).toBe("no-reply@localhost");
    expect(header(welcome.raw, "from")[0]).toBe(`${(await school()).name} <no-reply@localhost>`);
    expect(header(welcome.raw, "message-id")[0]).toBe(`<${(await db().mailMessage.findFirstOrThrow({ where: { to: email, kind: "welcome" } })).id}@localhost>`);
    expect(header(welcome.raw, "subject")[0]).toContain("Welcome to");
    expect(partOf(welcome.raw, "text/html")).toContain((await school()).brandColor ?? "#1f4e79");
    expect(linkIn(welcome.raw, "/account/set-password").searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await db().mailMessage.findMany({ where: { to: email } });
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
    // Only hashes of the links' tokens are stored; the outbox row itself holds none.
    expect(JSON.stringify(rows)).not.toContain(linkIn(welcome.raw, "/account/set-password").searchParams.get("token"));
  });

  it("the verification link confirms the email once; email_verified is false until then", async () => {
    const email = await newMember("verify");
    await drain();
    const verify = mailsTo(email).find((m) => kindOf(m.raw) === "verify-email")!;
    const token = linkIn(verify.raw, "/account/verify-email").searchParams.get("token")!;
    expect((await db().user.findUniqueOrThrow({ where: { email } })).emailVerified).toBe(false);
    const done = await postForm("/api/account/verify-email", { token });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/account/verify-email?done=1");
    expect((await db().user.findUniqueOrThrow({ where: { email } })).emailVerified).toBe(true);
    const again = await postForm("/api/account/verify-email", { token });
    expect(new URL(again.headers.get("location")!, "http://x").searchParams.get("error")).toBe("used_link");
    const forged = await postForm("/api/account/verify-email", { token: "A".repeat(43) });
    expect(new URL(forged.headers.get("location")!, "http://x").searchParams.get("error")).toBe("invalid_link");
  });

  it("UserInfo and the ID token say email_verified: false until the mailed link is used", async () => {
    const email = await newMember("claims");
    await drain();
    const mails = mailsTo(email);
    const setup = linkIn(mails.find((m) => kindOf(m.raw) === "welcome")!.raw, "/account/set-password").searchParams.get("token")!;
    // Choosing the password with the welcome link does not verify the email.
    await postForm("/api/account/set-password", { token: setup, password: "claims password 1", confirm: "claims password 1" });
    const claims = async () => {
      const t = await tokensFor(app, await signIn(app, email, "claims password 1"), { scope: "openid email" });
      const userinfo = (await (await app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${t.access_token}` } })).json()) as Record<string, unknown>;
      const idToken = JSON.parse(Buffer.from((t as { id_token?: string }).id_token!.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
      return [userinfo.email_verified, idToken.email_verified];
    };
    expect(await claims()).toEqual([false, false]);
    const verify = linkIn(mails.find((m) => kindOf(m.raw) === "verify-email")!.raw, "/account/verify-email").searchParams.get("token")!;
    await postForm("/api/account/verify-email", { token: verify });
    expect(await claims()).toEqual([true, true]);
  });

  it("the CLI's new owner gets the set-password link by mail too; using either link spends both", async () => {
    const email = freshEmail("owner");
    const added = await addMember({ actor: TEST_ACTOR, db: db(), school: "demo", email, role: "admin", now: TEST_NOW });
    await drain();
    expect(mailsTo(email).map((m) => kindOf(m.raw)).sort()).toEqual(["verify-email", "welcome"]);
    const mailed = linkIn(mailsTo(email).find((m) => kindOf(m.raw) === "welcome")!.raw, "/account/set-password").searchParams.get("token")!;
    expect(mailed).not.toBe(added.passwordSetup!.token);
    const done = await postForm("/api/account/set-password", { token: mailed, password: "owner password 1", confirm: "owner password 1" });
    expect(done.headers.get("location")).toMatch(/^\/login/);
    const printed = await postForm("/api/account/set-password", { token: added.passwordSetup!.token, password: "owner password 2", confirm: "owner password 2" });
    expect(printed.headers.get("location")).toContain("error=used_link");
  });

  it("a verification link for an email the account no longer has verifies nothing", async () => {
    const email = await newMember("changed");
    await drain();
    const token = linkIn(mailsTo(email).find((m) => kindOf(m.raw) === "verify-email")!.raw, "/account/verify-email").searchParams.get("token")!;
    const user = await db().user.update({ where: { email }, data: { email: freshEmail("changed-to") } });
    const res = await postForm("/api/account/verify-email", { token });
    expect(new URL(res.headers.get("location")!, "http://x").searchParams.get("error")).toBe("invalid_link");
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBe(false);
  });

  it("forgot password: the same answer for any email, a one-hour link for members, which ends every session", async () => {
    const email = await newMember("reset");
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const session = await db().memberSession.create({ data: { userId: user.id, origin: "http://demo.localhost", expiresAt: new Date(TEST_NOW.getTime() + 86_400_000) } });
    await drain();
    const before = inbox().mails.length;
    const { cookie, token } = await csrf();
    const known = await postForm("/api/account/forgot-password", { csrfToken: token, email: email.toUpperCase() }, cookie);
    const unknown = await postForm("/api/account/forgot-password", { csrfToken: token, email: freshEmail("nobody") }, cookie);
    expect([known.status, unknown.status]).toEqual([303, 303]);
    expect(known.headers.get("location")).toBe("/login/forgot?sent=1");
    expect(unknown.headers.get("location")).toBe("/login/forgot?sent=1");
    await drain();
    expect(inbox().mails.length).toBe(before + 1);
    const reset = mailsTo(email).find((m) => kindOf(m.raw) === "password-reset")!;
    const link = linkIn(reset.raw, "/account/set-password");
    const setup = await db().passwordSetupToken.findMany({ where: { userId: user.id }, orderBy: { createdAt: "desc" } });
    expect(setup[0]!.expiresAt.getTime() - TEST_NOW.getTime()).toBe(3_600_000);

    const done = await postForm("/api/account/set-password", { token: link.searchParams.get("token")!, password: "a new password 1", confirm: "a new password 1" });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toMatch(/^\/login/);
    expect((await db().memberSession.findUniqueOrThrow({ where: { id: session.id } })).revokedAt).not.toBeNull();
    const reused = await postForm("/api/account/set-password", { token: link.searchParams.get("token")!, password: "another password 2", confirm: "another password 2" });
    expect(reused.headers.get("location")).toContain("error=used_link");
  });

  it("forgot password needs the CSRF token, and is throttled per email whether or not it exists", async () => {
    const { cookie, token } = await csrf();
    const noToken = await postForm("/api/account/forgot-password", { email: "x@example.com" }, cookie);
    expect(noToken.headers.get("location")).toBe("/login/forgot?error=csrf");
    const wrong = await postForm("/api/account/forgot-password", { csrfToken: "forged", email: "x@example.com" }, cookie);
    expect(wrong.headers.get("location")).toBe("/login/forgot?error=csrf");
    for (const email of [freshEmail("nobody"), "student@schoolhouse.test"]) {
      const answers: string[] = [];
      for (let i = 0; i < 4; i++) answers.push((await postForm("/api/account/forgot-password", { csrfToken: token, email }, cookie)).headers.get("location")!);
      expect(answers).toEqual([...Array(3).fill("/login/forgot?sent=1"), "/login/forgot?error=throttled"]);
    }
    const bad = await postForm("/api/account/forgot-password", { csrfToken: token, email: "not an email" }, cookie);
    expect(bad.headers.get("location")).toBe("/login/forgot?error=invalid_email");
  });

  it("the cron route sends the due mails too", async () => {
    process.env.CRON_SECRET = "mail-cron-secret-0123456789";
    resetEnvCache();
    try {
      const email = await newMember("cron");
      const res = await app.fetch("/api/cron/webhooks", { headers: { authorization: `Bearer ${process.env.CRON_SECRET}` } });
      expect(await res.json()).toMatchObject({ ok: true, mail: { attempted: 2, sent: 2 } });
      expect(mailsTo(email)).toHaveLength(2);
    } finally {
      delete process.env.CRON_SECRET;
      resetEnvCache();
    }
  });

  it("a purchase sends its receipt through SMTP: the school's name and colour, the amount in its currency, the receipt link", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const member = await db().user.findFirstOrThrow({ where: { subscriptions: { some: { id: s.id } } } });
    await drain();
    const receipt = mailsTo(member.email).find((m) => kindOf(m.raw) === "purchase-receipt")!;
    expect(receipt).toBeDefined();
    expect(header(receipt.raw, "subject")[0]).toBe(`Your receipt from ${(await school()).name}`);
    expect(partOf(receipt.raw, "text/plain")).toContain("Amount paid: $29.00");
    expect(partOf(receipt.raw, "text/html")).toContain((await school()).brandColor ?? "#1f4e79");
    expect(linkIn(receipt.raw, `/account/payments/${s.payments[0].id}`).pathname).toBe(`/account/payments/${s.payments[0].id}`);
    expect((await db().mailMessage.findFirstOrThrow({ where: { to: member.email, kind: "purchase-receipt" } })).status).toBe("sent");
  });

  it("a kind the school turned off is not sent; the others are", async () => {
    await db().school.update({ where: { id: DEMO_IDS.school }, data: { mailDisabled: ["welcome"] } });
    const email = await newMember("settings");
    await drain();
    expect(mailsTo(email).map((m) => kindOf(m.raw))).toEqual(["verify-email"]);
  });

  it("no header injection: a school name with line breaks stays one From and one Subject, one recipient", async () => {
    const original = await school();
    await db().school.update({ where: { id: DEMO_IDS.school }, data: { name: "Evil\r\nBcc: victim@evil.test\r\nX-Injected: yes" } });
    try {
      const email = await newMember("inject");
      await drain();
      for (const m of mailsTo(email)) {
        expect(m.to).toEqual([email]);
        const names = headersOf(m.raw).map(([k]) => k);
        expect(names).not.toContain("bcc");
        expect(names).not.toContain("x-injected");
        expect(header(m.raw, "from")).toHaveLength(1);
        expect(header(m.raw, "subject")).toHaveLength(1);
      }
      expect(inbox().mails.some((m) => m.to.includes("victim@evil.test"))).toBe(false);
    } finally {
      await db().school.update({ where: { id: DEMO_IDS.school }, data: { name: original.name } });
    }
  });

  it("a refused mail is retried later (4xx) or given up (5xx); two workers never send one mail twice", async () => {
    inbox().refuseWith = 451;
    const email = await newMember("retry");
    await drain();
    let rows = await db().mailMessage.findMany({ where: { to: email } });
    expect(rows.every((r) => r.status === "pending" && r.attemptCount === 1 && r.nextAttemptAt! > TEST_NOW)).toBe(true);
    await db().mailMessage.updateMany({ where: { to: email }, data: { nextAttemptAt: TEST_NOW } });
    inbox().refuseWith = null;
    await Promise.all([drain(), drain(), drain()]);
    expect(mailsTo(email)).toHaveLength(2);
    rows = await db().mailMessage.findMany({ where: { to: email } });
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);

    inbox().refuseWith = 550;
    const refused = await newMember("refused");
    await drain();
    rows = await db().mailMessage.findMany({ where: { to: refused } });
    expect(rows.map((r) => r.status)).toEqual(["failed", "failed"]);
    expect(rows[0]!.lastError).toMatch(/550/);
  });
});

describe("mail without MAIL_URL", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mail-outbox-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes one .eml per mail to MAIL_OUTBOX_DIR and prints its links to the log", async () => {
    delete process.env.MAIL_URL;
    process.env.MAIL_OUTBOX_DIR = dir;
    resetEnvCache();
    try {
      const email = await newMember("folder");
      const lines: string[] = [];
      await drainMail({ now, budgetMs: 20_000, log: (l) => lines.push(l) });
      const files = (await readdir(dir)).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(2);
      const raws = await Promise.all(files.map((f) => readFile(path.join(dir, f), "utf8")));
      expect(raws.every((r) => header(r, "to")[0] === email)).toBe(true);
      const link = linkIn(raws.find((r) => kindOf(r) === "verify-email")!, "/account/verify-email");
      expect(lines.join("\n")).toContain(link.toString());
      // The development page's list (app/dev/mail) reads the same files back.
      const listed = await listFiledMail();
      expect(listed.map((m) => [m.to, m.kind]).sort()).toEqual([[email, "verify-email"], [email, "welcome"]]);
      expect(listed.find((m) => m.kind === "verify-email")!.text).toContain(link.toString());
    } finally {
      process.env.MAIL_URL = inbox().url;
      delete process.env.MAIL_OUTBOX_DIR;
      resetEnvCache();
    }
  });
});

function school() {
  return db().school.findUniqueOrThrow({ where: { id: DEMO_IDS.school } });
}
