import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { cliActor, type AuditActor } from "@/lib/db/audit";
import { disableMember, enableMember } from "@/lib/console/disable-member";
import { importContent } from "@/lib/content/import-content";
import { setCimdAllowed } from "@/lib/oauth/school-apps/set-cimd-allowed";
import { createSchool } from "@/lib/schools/create-school";
import { removeStripeAccount, setStripeAccount } from "@/lib/billing/stripe-settings";
import { setMailSettings } from "@/lib/schools/mail-settings";
import { setCustomDomain, setSchoolEnabled } from "@/lib/schools/manage-schools";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { csrf, signIn, tokensFor } from "../oauth/helpers";

// The write paths the audit log did not cover at first (docs/decisions.md, "Audit log"): a member's
// own email and password changes, ending sessions and disconnecting apps on /account, staff
// disabling a member and switching the school's CIMD setting in the console, and the CLI's school
// create/disable and content imports. Each writes its row (actor, action, target, summary) in the
// transaction of the change; a refused or no-op request writes none.
const app = appForSuite({ host: "demo.localhost" });
const SCHOOL = DEMO_IDS.school;
const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/pottery-school");

const rowsOf = (where: { targetId?: string; action?: string | { in: string[] }; schoolId?: string }) =>
  db().auditEvent.findMany({ where, orderBy: [{ createdAt: "asc" }, { action: "asc" }, { id: "asc" }] });
const total = () => db().auditEvent.count();

async function member(email: string) {
  const c = await csrf(app, await signIn(app, email));
  return { cookie: c.cookie, token: c.token };
}

function post(action: string, who: { cookie: string; token: string }, fields: Record<string, string> = {}) {
  return app.fetch(`/api/account/${action}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: who.cookie },
    body: new URLSearchParams({ csrfToken: who.token, ...fields }).toString(),
    redirect: "manual",
  });
}

/** The member session a browser's sign-in made: the newest live one of the user. */
const newestSession = (userId: string) => db().memberSession.findFirstOrThrow({ where: { userId, revokedAt: null }, orderBy: { createdAt: "desc" } });

describe("/account: the member's own account changes", () => {
  it("email: one member.change_email row with the member and their session; a wrong password, a taken email and a double submit write none", async () => {
    const me = await member("reviewer@schoolhouse.test");
    const session = await newestSession(DEMO_IDS.users.reviewer);
    const before = await total();
    expect((await post("email", me, { email: "rev.new@schoolhouse.test", current: "wrong-password" })).headers.get("location")).toBe("/account?error=wrong_password");
    expect((await post("email", me, { email: "student@schoolhouse.test", current: "schoolhouse-demo" })).headers.get("location")).toBe("/account?error=email_taken");
    expect(await total()).toBe(before);

    const fields = { email: "rev.new@schoolhouse.test", current: "schoolhouse-demo" };
    expect((await post("email", me, fields)).headers.get("location")).toBe("/account?done=email");
    expect((await post("email", me, fields)).headers.get("location")).toBe("/account?done=email");
    const rows = await rowsOf({ targetId: DEMO_IDS.users.reviewer, action: "member.change_email" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      schoolId: SCHOOL,
      actorType: "member",
      actorId: DEMO_IDS.users.reviewer,
      actorLabel: "reviewer@schoolhouse.test",
      credentialId: session.id,
      targetType: "member",
      summary: { email: { from: "reviewer@schoolhouse.test", to: "rev.new@schoolhouse.test" }, emailVerified: { from: true, to: false } },
    });
    expect(rows[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // The row and the change are one: the email the row names is the one stored.
    expect((await db().user.findUniqueOrThrow({ where: { id: DEMO_IDS.users.reviewer } })).email).toBe("rev.new@schoolhouse.test");
    await db().user.update({ where: { id: DEMO_IDS.users.reviewer }, data: { email: "reviewer@schoolhouse.test", emailVerified: true } });
  });

  it("password: one member.change_password row saying how many other sessions ended, never the password; refusals and a double submit write none", async () => {
    const me = await member("ta@schoolhouse.test");
    await signIn(app, "ta@schoolhouse.test");
    const before = await total();
    const attempt = (current: string, password = "a-brand-new-password", confirm = password) => post("password", me, { current, password, confirm });
    expect((await attempt("wrong-password")).headers.get("location")).toBe("/account?error=wrong_password");
    expect((await attempt("schoolhouse-demo", "a-brand-new-password", "another-password")).headers.get("location")).toBe("/account?error=mismatch");
    expect((await attempt("schoolhouse-demo", "short")).headers.get("location")).toBe("/account?error=weak_password");
    expect(await total()).toBe(before);

    expect((await attempt("schoolhouse-demo")).headers.get("location")).toBe("/account?done=password");
    expect((await attempt("schoolhouse-demo")).headers.get("location")).toBe("/account?done=password");
    const rows = await rowsOf({ targetId: DEMO_IDS.users.teachingAssistant, action: "member.change_password" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ schoolId: SCHOOL, actorType: "member", actorId: DEMO_IDS.users.teachingAssistant, targetType: "member", summary: { otherSessionsEnded: 1 } });
    expect(JSON.stringify(rows)).not.toContain("a-brand-new-password");
    await attempt("a-brand-new-password", "schoolhouse-demo");
  });

  it("sessions: member.end_session for each session ended, one or all others; another member's session and an ended one write none", async () => {
    const me = await member("multi@schoolhouse.test");
    await signIn(app, "multi@schoolhouse.test");
    await signIn(app, "multi@schoolhouse.test");
    const live = await db().memberSession.findMany({ where: { userId: DEMO_IDS.users.multiRole, revokedAt: null }, orderBy: { createdAt: "asc" } });
    await signIn(app, "manager@schoolhouse.test");
    const someoneElses = await newestSession(DEMO_IDS.users.manager);
    const before = await total();
    expect((await post("end-session", me, { session: someoneElses.id })).status).toBe(404);
    expect(await total()).toBe(before);

    const target = live.at(-1)!;
    expect((await post("end-session", me, { session: target.id })).headers.get("location")).toBe("/account/sessions?done=session_ended");
    expect((await post("end-session", me, { session: target.id })).headers.get("location")).toBe("/account/sessions?done=session_ended");
    let rows = await rowsOf({ targetId: DEMO_IDS.users.multiRole, action: "member.end_session" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ schoolId: SCHOOL, actorType: "member", actorId: DEMO_IDS.users.multiRole, targetType: "member", summary: { sessionId: target.id, origin: "http://demo.localhost", reason: "signed_out_elsewhere" } });

    // Every live session on this origin but the one posting.
    const others = (await db().memberSession.count({ where: { userId: DEMO_IDS.users.multiRole, origin: "http://demo.localhost", revokedAt: null } })) - 1;
    expect(others).toBeGreaterThanOrEqual(1);
    expect((await post("end-other-sessions", me)).headers.get("location")).toBe("/account/sessions?done=others_ended");
    rows = await rowsOf({ targetId: DEMO_IDS.users.multiRole, action: "member.end_session" });
    // Each its own row, in the transaction that ended it.
    expect(rows).toHaveLength(1 + others);
    const ended = await db().memberSession.findMany({ where: { id: { in: rows.map((r) => (r.summary as { sessionId: string }).sessionId) } } });
    expect(ended.every((s) => s.revokedAt !== null)).toBe(true);
    const again = await total();
    expect((await post("end-other-sessions", me)).headers.get("location")).toBe("/account/sessions?done=others_ended");
    expect(await total()).toBe(again);
  });

  it("apps: member.disconnect_app when grants end; an app never connected (404) and a second submit write none", async () => {
    const me = await member("student@schoolhouse.test");
    await tokensFor(app, me.cookie, { scope: "openid profile" });
    const before = await total();
    expect((await post("revoke-app", me, { client: "demo-confidential-app" })).status).toBe(404);
    expect(await total()).toBe(before);
    expect((await post("revoke-app", me, { client: "demo-public-app" })).headers.get("location")).toBe("/account/apps?done=revoked");
    expect((await post("revoke-app", me, { client: "demo-public-app" })).headers.get("location")).toBe("/account/apps?done=revoked");
    const rows = await rowsOf({ targetId: DEMO_IDS.users.student, action: "member.disconnect_app" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ schoolId: SCHOOL, actorType: "member", actorId: DEMO_IDS.users.student, targetType: "member", summary: { clientId: "demo-public-app", revokedGrants: 1 } });
  });
});

describe("staff console", () => {
  // The console's actor: the signed-in staff member (memberActor of their session and request).
  const staff = (): AuditActor => ({ type: "member", id: DEMO_IDS.users.owner, label: "owner@schoolhouse.test", credentialId: "00000000-0000-4000-8000-00000000c0de", requestId: null, ip: null });
  const school = { id: SCHOOL, subdomain: "demo", customDomain: null };

  it("disable and enable a member: member.disable / member.enable by the staff member, the apps ended as member.disconnect_app; repeats and refusals write none", async () => {
    const teacher = await member("teacher@schoolhouse.test");
    await tokensFor(app, teacher.cookie, { scope: "openid" });
    const before = await total();
    expect(await disableMember({ school, userId: DEMO_IDS.users.owner, actorUserId: DEMO_IDS.users.owner, now: new Date(), actor: staff() })).toMatchObject({ ok: false });
    expect(await enableMember({ schoolId: SCHOOL, userId: DEMO_IDS.users.teacher, now: new Date(), actor: staff() })).toEqual({ ok: true, already: true });
    expect(await total()).toBe(before);

    expect(await disableMember({ school, userId: DEMO_IDS.users.teacher, actorUserId: DEMO_IDS.users.owner, now: new Date(), actor: staff() })).toMatchObject({ ok: true, already: false, apps: 1 });
    expect(await disableMember({ school, userId: DEMO_IDS.users.teacher, actorUserId: DEMO_IDS.users.owner, now: new Date(), actor: staff() })).toMatchObject({ ok: true, already: true });
    expect(await enableMember({ schoolId: SCHOOL, userId: DEMO_IDS.users.teacher, now: new Date(), actor: staff() })).toEqual({ ok: true, already: false });
    const rows = await rowsOf({ targetId: DEMO_IDS.users.teacher });
    expect(rows.map((r) => [r.action, r.actorType, r.actorId])).toEqual(
      expect.arrayContaining([
        ["member.disable", "member", DEMO_IDS.users.owner],
        ["member.disconnect_app", "member", DEMO_IDS.users.owner],
        ["member.enable", "member", DEMO_IDS.users.owner],
      ]),
    );
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.action === "member.disable")!.summary).toMatchObject({ disabledAt: { from: null } });
  });

  it("the CIMD switch: school.set_cimd_allowed with the grants it ended; saving the same setting again writes none", async () => {
    const docId = "https://agent.audit.example/client.json";
    await db().oAuthGrant.create({ data: { clientId: docId, userId: DEMO_IDS.users.student, schoolId: SCHOOL, scope: "openid", issuer: "http://demo.localhost" } });
    const off = await setCimdAllowed({ schoolId: SCHOOL, input: { allowed: false }, now: new Date(), actor: staff() });
    expect(off.record).toEqual({ allowed: false, revokedGrants: 1 });
    const before = await total();
    await setCimdAllowed({ schoolId: SCHOOL, input: { allowed: false }, now: new Date(), actor: staff() });
    expect(await total()).toBe(before);
    await setCimdAllowed({ schoolId: SCHOOL, input: { allowed: true }, now: new Date(), actor: staff() });
    const rows = await rowsOf({ targetId: SCHOOL, action: "school.set_cimd_allowed" });
    expect(rows.map((r) => [r.actorId, r.summary])).toEqual([
      [DEMO_IDS.users.owner, { cimdAllowed: { from: true, to: false }, revokedGrants: 1 }],
      [DEMO_IDS.users.owner, { cimdAllowed: { from: false, to: true }, revokedGrants: 0 }],
    ]);
  });
});

describe("the CLI: schools and content", () => {
  it("school create: school.create, the owner's member.create and the key's api_key.create, never the key or the setup token; a refused create writes none", async () => {
    const actor = cliActor("npm run school");
    const created = await createSchool({ db: db(), subdomain: "audited", name: "Audited School", ownerEmail: "owner@audited.example", now: new Date(), actor });
    const rows = await rowsOf({ schoolId: created.school.id });
    expect(rows.map((r) => [r.action, r.targetType, r.targetId, r.actorType])).toEqual([
      ["api_key.create", "api_key", created.apiKey.id, "cli"],
      ["member.create", "member", created.owner.id, "cli"],
      ["school.create", "school", created.school.id, "cli"],
    ]);
    expect(rows.find((r) => r.action === "school.create")!.summary).toEqual({ subdomain: "audited", name: "Audited School" });
    expect(rows.find((r) => r.action === "member.create")!.summary).toMatchObject({ email: "owner@audited.example", userCreated: true, roles: { from: null, to: ["owner"] } });
    expect(rows[0]!.actorLabel).toMatch(/^npm run school/);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(created.apiKey.key.slice(-20));
    expect(text).not.toContain(created.passwordSetup!.token);

    const before = await total();
    await expect(createSchool({ db: db(), subdomain: "audited", name: "Again", ownerEmail: "x@audited.example", now: new Date(), actor })).rejects.toThrow(/already exists/);
    expect(await total()).toBe(before);
  });

  it("school disable/enable: one row each; disabling a disabled school writes none", async () => {
    const actor = cliActor("npm run school");
    const created = await createSchool({ db: db(), subdomain: "switched", name: "Switched", ownerEmail: "owner@switched.example", now: new Date(), actor });
    expect((await setSchoolEnabled({ db: db(), school: "switched", enabled: false, now: new Date(), actor })).changed).toBe(true);
    expect((await setSchoolEnabled({ db: db(), school: "switched", enabled: false, now: new Date(), actor })).changed).toBe(false);
    expect((await setSchoolEnabled({ db: db(), school: "switched", enabled: true, now: new Date(), actor })).changed).toBe(true);
    const rows = await rowsOf({ targetId: created.school.id, action: { in: ["school.disable", "school.enable"] } });
    expect(rows.map((r) => r.action).sort()).toEqual(["school.disable", "school.enable"]);
    const disabled = rows.find((r) => r.action === "school.disable")!;
    expect(disabled).toMatchObject({ actorType: "cli", targetType: "school" });
    expect((disabled.summary as { disabledAt: { from: null; to: string } }).disabledAt.from).toBeNull();
  });

  it("content import: one content.import row with what changed; a dry run and an import with nothing to change write none", async () => {
    const actor = cliActor("npm run school");
    const created = await createSchool({ db: db(), subdomain: "pottery", name: "Pottery", ownerEmail: "owner@pottery.example", now: new Date(), actor });
    const imports = () => rowsOf({ schoolId: created.school.id, action: "content.import" });
    const dry = await importContent({ db: db(), school: "pottery", dir: FIXTURE, dryRun: true, now: new Date(), actor });
    expect(dry.changes.length).toBeGreaterThan(0);
    expect(await imports()).toEqual([]);

    const done = await importContent({ db: db(), school: "pottery", dir: FIXTURE, now: new Date(), actor });
    const rows = await imports();
    expect(rows).toHaveLength(1);
    const made = done.changes.filter((c) => c.action === "create").length;
    expect(rows[0]).toMatchObject({ actorType: "cli", targetType: "school", targetId: created.school.id, summary: { created: made, unpublished: 0 } });
    expect((rows[0]!.summary as { changes: string[] }).changes).toContain("create courses/wheel-basics");

    expect((await importContent({ db: db(), school: "pottery", dir: FIXTURE, now: new Date(), actor })).changes).toEqual([]);
    expect(await imports()).toHaveLength(1);
  });

  it("operator settings: custom domain, mail and the Stripe account, a row each when they change, never a Stripe secret", async () => {
    const actor = cliActor("npm run school");
    const created = await createSchool({ db: db(), subdomain: "settings", name: "Settings", ownerEmail: "owner@settings.example", now: new Date(), actor });
    const schoolId = created.school.id;
    const domain = { db: db(), school: "settings", host: "learn.settings.example", platformDomain: "localhost", now: new Date(), actor };
    await setCustomDomain(domain);
    await setCustomDomain(domain);
    const mail = { db: db(), school: "settings", off: "welcome", from: "hello@settings.example", now: new Date(), actor };
    await setMailSettings(mail);
    await setMailSettings(mail);
    const secretKey = `sk_test_${"a1".repeat(12)}`;
    const webhookSecret = `whsec_${"b2".repeat(12)}`;
    await setStripeAccount({ schoolId, secretKey, webhookSecret, now: new Date(), actor });
    await removeStripeAccount({ schoolId, now: new Date(), actor });
    await removeStripeAccount({ schoolId, now: new Date(), actor });

    const rows = await rowsOf({ targetId: schoolId, action: { in: ["school.set_domain", "school.update_mail", "school.set_stripe_account", "school.remove_stripe_account"] } });
    expect(rows.map((r) => r.action).sort()).toEqual(["school.remove_stripe_account", "school.set_domain", "school.set_stripe_account", "school.update_mail"]);
    const by = (action: string) => rows.find((r) => r.action === action)!.summary;
    expect(by("school.set_domain")).toEqual({ customDomain: { from: null, to: "learn.settings.example" } });
    expect(by("school.update_mail")).toEqual({ mailDisabled: { from: [], to: ["welcome"] }, mailFromAddress: { from: null, to: "hello@settings.example" } });
    expect(by("school.set_stripe_account")).toEqual({ livemode: { from: false, to: false }, keyHint: { from: null, to: "sk_test_…a1a1" } });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(secretKey);
    expect(text).not.toContain(webhookSecret.slice(6));
  });
});
