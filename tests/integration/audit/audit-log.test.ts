import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AUDIT_RETENTION_DAYS, cliActor, purgeAuditEvents, recordAudit, REDACTED, systemActor } from "@/lib/db/audit";
import { writeTransaction } from "@/lib/db/write-transaction";
import { addMember } from "@/lib/schools/add-member";
import { runScheduledJobs } from "@/lib/admin-api/cron";
import { createApiKey, revokeApiKey } from "@/lib/admin-api/api-keys";
import { createOAuthClient } from "@/lib/oauth/client-admin/create-client";
import { rotateClientSecret } from "@/lib/oauth/client-admin/rotate-client-secret";
import { revokeOAuthClient } from "@/lib/oauth/client-admin/revoke-client";
import { ACME_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { CANCEL, CREATE, TEST_NOW, freshEmail, gql, subscribe } from "../admin-api/helpers";
import { appForSuite } from "../../helpers/app-for-suite";
import { csrf, signIn } from "../oauth/helpers";
import { call, grantIdOf, mcpClient, mcpToken } from "../mcp/helpers";

// The audit log (lib/db/audit.ts; docs/decisions.md, "Audit log"): every write path writes exactly
// one row, in its own transaction, naming the actor its transport authenticated; a refusal, a dry
// run or a rolled-back transaction writes none; rows are append-only and purged after the
// retention period; the Admin API's auditEvents and payments read them a page at a time.
const app = appForSuite({ now: TEST_NOW });
const PLANS = DEMO_IDS.plans;

// The suite's clock is frozen: rows of one test share their time, so they are compared by action.
const rowsFor = (targetId: string) => db().auditEvent.findMany({ where: { targetId }, orderBy: [{ createdAt: "asc" }, { action: "asc" }] });
const total = () => db().auditEvent.count();

const AUDIT = `query A($first: Int, $after: String, $actorType: String, $action: String, $targetId: String, $since: Int, $until: Int) {
  auditEvents(first: $first, after: $after, actorType: $actorType, action: $action, targetId: $targetId, since: $since, until: $until) {
    nodes { id actorType actorId actorLabel credentialId action targetType targetId summary requestId ip createdAt }
    pageInfo { hasNextPage endCursor }
  }
}`;
const PAYMENTS = `query P($first: Int, $after: String, $state: String, $userId: String, $subscriptionId: String, $since: Int, $until: Int) {
  payments(first: $first, after: $after, state: $state, userId: $userId, subscriptionId: $subscriptionId, since: $since, until: $until) {
    nodes { id state amount subscriptionId createdAt }
    pageInfo { hasNextPage endCursor }
  }
}`;

let keyId: string;
let keyName: string;

beforeAll(async () => {
  const key = await db().apiKey.findUniqueOrThrow({ where: { id: DEMO_IDS.apiKeys.full } });
  keyId = key.id;
  keyName = key.name;
});

describe("each write path writes exactly one row with its actor", () => {
  it("Admin API (API key): create and cancel; the refused second cancel and a refused create write none", async () => {
    const sub = await subscribe(app, PLANS.monthly);
    const [created] = await rowsFor(sub.id);
    expect(await rowsFor(sub.id)).toHaveLength(1);
    expect(created).toMatchObject({ actorType: "api_key", actorId: keyId, actorLabel: keyName, credentialId: keyId, action: "subscription.create", targetType: "subscription" });
    expect(created!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(created!.summary).toMatchObject({ planId: PLANS.monthly, state: "active", memberCreated: true });

    const cancel = await gql(app, CANCEL, { input: { id: sub.id, cancelAtPeriodEnd: false } });
    expect(cancel.body.data.cancelSubscription.errors).toEqual([]);
    const rows = await rowsFor(sub.id);
    expect(rows.map((r) => r.action)).toEqual(["subscription.cancel", "subscription.create"]);
    expect(rows[0]!.summary).toMatchObject({ state: { from: "active", to: "canceled" } });

    const before = await total();
    const again = await gql(app, CANCEL, { input: { id: sub.id, cancelAtPeriodEnd: false } });
    expect(again.body.data.cancelSubscription.errors).toEqual(["Subscription already cancelled"]);
    const refused = await gql(app, CREATE, { input: { email: freshEmail(), name: "X", planId: "00000000-0000-4000-8000-000000000000" } });
    expect(refused.body.data.createSubscription.errors).toEqual(["Plan not found"]);
    const unauthorized = await gql(app, CREATE, { input: { email: freshEmail(), name: "X", planId: PLANS.monthly } }, { key: DEFAULT_DEMO_API_KEY_NO_PERMISSIONS });
    expect(unauthorized.body.data.createSubscription.errors).toEqual(["Unauthorized"]);
    expect(await total()).toBe(before);
  });

  it("Admin API: an existing member's subscription (the transaction path) and a webhook secret rotation, never the secret", async () => {
    const email = freshEmail("existing");
    await subscribe(app, PLANS.monthly, { email });
    const second = await gql(app, CREATE, { input: { email, planId: PLANS.lifetime } });
    const id = second.body.data.createSubscription.subscription.id;
    expect((await rowsFor(id)).map((r) => [r.action, (r.summary as { memberCreated: boolean }).memberCreated])).toEqual([["subscription.create", false]]);

    const made = await gql(app, `mutation { createWebhookEndpoint(input: { url: "https://hooks.audit.test/in", events: ["*"] }) { errors endpoint { id } secret } }`);
    const endpointId = made.body.data.createWebhookEndpoint.endpoint.id;
    const rotated = await gql(app, `mutation { rotateWebhookSecret(input: { id: "${endpointId}" }) { errors secret } }`);
    const secret = rotated.body.data.rotateWebhookSecret.secret as string;
    const rows = await rowsFor(endpointId);
    expect(rows.map((r) => r.action)).toEqual(["webhook_endpoint.create", "webhook_endpoint.rotate_secret"]);
    for (const r of rows) expect(JSON.stringify(r.summary)).not.toContain(secret.slice(6, 20));
    expect(JSON.stringify(rows)).not.toContain(made.body.data.createWebhookEndpoint.secret.slice(6, 20));
    await gql(app, `mutation { deleteWebhookEndpoint(input: { id: "${endpointId}" }) { errors deletedId } }`);
    expect((await rowsFor(endpointId)).map((r) => r.action)).toEqual(["webhook_endpoint.create", "webhook_endpoint.delete", "webhook_endpoint.rotate_secret"]);
  });

  it("MCP (an agent through a member's OAuth grant): the OAuth client, with the grant as credential; a dry run writes none", async () => {
    const token = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school });
    const grant = await db().oAuthGrant.findUniqueOrThrow({ where: { id: await grantIdOf(token) } });
    const client = await mcpClient(app, token);
    const email = freshEmail("mcp");
    const before = await total();
    const dry = await call(client, "enroll_student", { courseId: DEMO_IDS.courses.introToSql, email, name: "Mcp Member", dry_run: true });
    expect(dry.isError).toBeFalsy();
    expect(await total()).toBe(before);
    const done = await call(client, "enroll_student", { courseId: DEMO_IDS.courses.introToSql, email, name: "Mcp Member" });
    const enrollmentId = (done.structuredContent as { enrollment: { id: string } }).enrollment.id;
    const rows = await rowsFor(enrollmentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "oauth_client", actorId: grant.clientId, credentialId: grant.id, action: "enrollment.create", actorLabel: `admin@schoolhouse.test via ${grant.clientId}` });
    // Enrolling twice changes nothing: no second row.
    await call(client, "enroll_student", { courseId: DEMO_IDS.courses.introToSql, email, name: "Mcp Member" });
    expect(await rowsFor(enrollmentId)).toHaveLength(1);
  });

  it("/account (the signed-in member): their session as credential; a double submit writes one row", async () => {
    const sub = await subscribe(app, PLANS.monthly, { email: "student@schoolhouse.test" }).catch(async () =>
      db().subscription.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, user: { email: "student@schoolhouse.test" }, state: "active", cancelAt: null } }),
    );
    const { cookie, token } = await csrf(app, await signIn(app, "student@schoolhouse.test"));
    const post = () =>
      app.fetch("/api/account/cancel", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ csrfToken: token, subscription: sub.id }).toString(),
        redirect: "manual",
      });
    expect((await post()).status).toBe(303);
    expect((await post()).status).toBe(303);
    const rows = (await rowsFor(sub.id)).filter((r) => r.action === "subscription.cancel");
    expect(rows).toHaveLength(1);
    const session = await db().memberSession.findFirstOrThrow({ where: { id: rows[0]!.credentialId! } });
    expect(rows[0]).toMatchObject({ actorType: "member", actorId: DEMO_IDS.users.student, actorLabel: "student@schoolhouse.test" });
    expect(session.userId).toBe(DEMO_IDS.users.student);
  });

  it("renewals and time rules are the system; the CLI is cli", async () => {
    const sub = await subscribe(app, PLANS.monthly);
    const end = new Date(sub.currentPeriodEnd * 1000);
    await runScheduledJobs({ now: new Date(end.getTime() + 1000) });
    const renewed = (await rowsFor(sub.id)).filter((r) => r.action === "subscription.renew");
    expect(renewed).toHaveLength(1);
    expect(renewed[0]).toMatchObject({ actorType: "system", actorLabel: "renewals", actorId: null, credentialId: null, requestId: null });
    expect(renewed[0]!.summary).toMatchObject({ currentPeriodEnd: { from: end.toISOString() } });

    const added = await addMember({ db: db(), school: "demo", email: freshEmail("cli"), role: "teacher", now: TEST_NOW, actor: cliActor("npm run school") });
    const rows = await rowsFor(added.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorType: "cli", action: "member.create", summary: expect.objectContaining({ roles: { from: null, to: ["teacher"] } }) });
    expect(rows[0]!.actorLabel).toMatch(/^npm run school/);
  });
});

describe("credentials (the CLI's verbs): one row each, never the secret", () => {
  it("API keys: create and revoke; revoking again writes none", async () => {
    const actor = cliActor("npm run apikey");
    const created = await createApiKey({ school: "demo", name: "audited key", permissions: ["courses"], enforceLimits: false, actor, now: TEST_NOW });
    await revokeApiKey({ ref: created.id, now: TEST_NOW, actor });
    await revokeApiKey({ ref: created.id, now: TEST_NOW, actor });
    const rows = await rowsFor(created.id);
    expect(rows.map((r) => [r.action, r.actorType])).toEqual([["api_key.create", "cli"], ["api_key.revoke", "cli"]]);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(-20));
  });

  it("OAuth clients: create, rotate the secret, revoke", async () => {
    const actor = cliActor("npm run oauth-client");
    const made = await createOAuthClient({ db: db(), actor, now: TEST_NOW, school: "demo", name: "Audited App", redirectUris: ["https://app.audit.test/cb"], scope: "openid", confidential: true });
    const rotated = await rotateClientSecret({ db: db(), clientId: made.client.clientId, now: TEST_NOW, actor });
    await revokeOAuthClient({ db: db(), clientId: made.client.clientId, now: TEST_NOW, actor });
    const rows = await rowsFor(made.client.clientId);
    expect(rows.map((r) => r.action)).toEqual(["oauth_client.create", "oauth_client.revoke", "oauth_client.rotate_secret"]);
    expect(rows[0]!.summary).toMatchObject({ name: "Audited App", authMethod: "client_secret_basic" });
    const text = JSON.stringify(rows);
    for (const secret of [made.secret!, rotated.secret]) expect(text).not.toContain(secret.slice(-20));
  });
});

describe("the rule of the log", () => {
  it("a rolled-back transaction leaves no row", async () => {
    const before = await total();
    await expect(
      writeTransaction({}, async (tx) => {
        await recordAudit(tx, { actor: systemActor("test"), now: TEST_NOW, entry: { schoolId: DEMO_IDS.school, action: "x.y", target: { type: "x", id: null } } });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await total()).toBe(before);
  });

  it("secret-named fields are redacted at every depth", async () => {
    const id = crypto.randomUUID();
    await writeTransaction({}, async (tx) => {
      const summary = { name: "k", secret: "whsec_x", nested: { clientSecretHash: "h", password: "p", apiKey: "sh_x", token: "t" } };
      await recordAudit(tx, { actor: systemActor("test"), now: TEST_NOW, entry: { schoolId: DEMO_IDS.school, action: "x.y", target: { type: "x", id }, summary } });
      return { errors: [], record: null };
    });
    const [row] = await rowsFor(id);
    expect(row!.summary).toEqual({ name: "k", secret: REDACTED, nested: { clientSecretHash: REDACTED, password: REDACTED, apiKey: REDACTED, token: REDACTED } });
  });

  it("is append-only: UPDATE and DELETE are refused; the purge deletes only rows past the retention period", async () => {
    const [row] = await db().auditEvent.findMany({ take: 1 });
    await expect(db().auditEvent.update({ where: { id: row!.id }, data: { action: "forged" } })).rejects.toThrow(/append-only/);
    await expect(db().auditEvent.delete({ where: { id: row!.id } })).rejects.toThrow(/append-only/);
    await expect(db().$executeRawUnsafe(`DELETE FROM "AuditEvent"`)).rejects.toThrow(/append-only/);

    const old = new Date(TEST_NOW.getTime() - (AUDIT_RETENTION_DAYS + 1) * 86_400_000);
    const oldId = crypto.randomUUID();
    await writeTransaction({}, async (tx) => {
      await recordAudit(tx, { actor: systemActor("test"), now: old, entry: { schoolId: DEMO_IDS.school, action: "x.old", target: { type: "x", id: oldId } } });
      return { errors: [], record: null };
    });
    const before = await total();
    expect(await purgeAuditEvents(db(), { now: TEST_NOW })).toBe(1);
    expect(await rowsFor(oldId)).toEqual([]);
    expect(await total()).toBe(before - 1);
    // The purge's permission does not outlive its transaction.
    await expect(db().auditEvent.delete({ where: { id: row!.id } })).rejects.toThrow(/append-only/);
  });
});

describe("Admin API auditEvents and payments", () => {
  it("filters by actor type, action, target and time, and pages newest first without gaps or duplicates", async () => {
    const sub = await subscribe(app, PLANS.monthly);
    const byTarget = await gql(app, AUDIT, { targetId: sub.id });
    expect(byTarget.body.data.auditEvents.nodes).toEqual([expect.objectContaining({ action: "subscription.create", actorType: "api_key", targetId: sub.id })]);
    expect(JSON.parse(byTarget.body.data.auditEvents.nodes[0].summary)).toMatchObject({ planId: PLANS.monthly });

    const system = (await gql(app, AUDIT, { actorType: "system" })).body.data.auditEvents.nodes as { actorType: string }[];
    expect(system.length).toBeGreaterThan(0);
    expect(new Set(system.map((n) => n.actorType))).toEqual(new Set(["system"]));
    const creates = (await gql(app, AUDIT, { action: "subscription.create", first: 100 })).body.data.auditEvents.nodes as { action: string }[];
    expect(creates.every((n) => n.action === "subscription.create")).toBe(true);

    const all = await db().auditEvent.findMany({ where: { schoolId: DEMO_IDS.school }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = (await gql(app, AUDIT, { first: 3, after })).body.data.auditEvents;
      seen.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.map((r) => r.id));

    const at = Math.floor(TEST_NOW.getTime() / 1000);
    const window = (await gql(app, AUDIT, { since: at, until: at + 1, first: 100 })).body.data.auditEvents.nodes as { createdAt: number }[];
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((n) => n.createdAt === at)).toBe(true);
  });

  it("refuses bad arguments (BAD_USER_INPUT), a key without the permission (FORBIDDEN), and shows only the key's school", async () => {
    for (const variables of [{ actorType: "robot" }, { first: 0 }, { after: "nope" }, { since: 10, until: 5 }, { action: "x".repeat(201) }]) {
      const r = await gql(app, AUDIT, variables);
      expect(r.body.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe("BAD_USER_INPUT");
    }
    const forbidden = await gql(app, AUDIT, {}, { key: DEFAULT_DEMO_API_KEY_NO_PERMISSIONS });
    expect(forbidden.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect(forbidden.body.data.auditEvents).toBeNull();
    const forbiddenPayments = await gql(app, PAYMENTS, {}, { key: DEFAULT_DEMO_API_KEY_NO_PERMISSIONS });
    expect(forbiddenPayments.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const acme = (await gql(app, AUDIT, { first: 100 }, { key: ACME_API_KEY })).body.data.auditEvents.nodes as { id: string }[];
    const demoIds = new Set((await db().auditEvent.findMany({ where: { schoolId: DEMO_IDS.school }, select: { id: true } })).map((r) => r.id));
    expect(acme.some((n) => demoIds.has(n.id))).toBe(false);
  });

  it("payments: school-wide, newest first, by state, member and subscription; a refund is audited as the key", async () => {
    const email = freshEmail("payer");
    const made = await gql(app, CREATE, { input: { email, name: "Payer", planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: "pm_card_visa" } });
    const sub = made.body.data.createSubscription.subscription;
    expect(sub.state).toBe("active");
    const user = await db().user.findUniqueOrThrow({ where: { email } });

    const mine = (await gql(app, PAYMENTS, { userId: user.id })).body.data.payments.nodes as { id: string; state: string; subscriptionId: string }[];
    expect(mine).toEqual([expect.objectContaining({ state: "succeeded", subscriptionId: sub.id })]);
    expect((await gql(app, PAYMENTS, { subscriptionId: sub.id })).body.data.payments.nodes).toEqual(mine);
    expect((await gql(app, PAYMENTS, { subscriptionId: sub.id, state: "failed" })).body.data.payments.nodes).toEqual([]);
    expect((await gql(app, PAYMENTS, { userId: "not-a-uuid" })).body.data.payments.nodes).toEqual([]);
    expect((await gql(app, PAYMENTS, { state: "lost" })).body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect((await gql(app, PAYMENTS, {}, { key: ACME_API_KEY })).body.data.payments.nodes.some((p: { id: string }) => p.id === mine[0]!.id)).toBe(false);

    const collected = await rowsFor(mine[0]!.id);
    expect(collected.map((r) => [r.action, r.actorType])).toEqual([["payment.collect", "system"]]);

    const refund = await gql(app, `mutation { refundPayment(input: { paymentId: "${mine[0]!.id}" }) { errors payment { state } } }`);
    expect(refund.body.data.refundPayment.errors).toEqual([]);
    const rows = await rowsFor(mine[0]!.id);
    expect(rows.map((r) => [r.action, r.actorType])).toEqual([["payment.collect", "system"], ["payment.refund", "api_key"]]);
    expect(rows[1]!.summary).toMatchObject({ state: { from: "succeeded", to: "refunded" } });

    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { nodes: { id: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } = (await gql(app, PAYMENTS, { first: 1, after })).body.data.payments;
      seen.push(...page.nodes.map((n) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    const all = await db().payment.findMany({ where: { schoolId: DEMO_IDS.school }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } });
    expect(seen).toEqual(all.map((p) => p.id));
  });
});
