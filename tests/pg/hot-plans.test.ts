// Flat cost as data grows (docs/benchmarks.md): on a scaled-down copy of the large-school dataset
// (bench/large-dataset.ts), the statements the hot paths really send (captured from the client,
// with their parameters) are explained by Postgres, and none may scan a large table sequentially
// or read a large table's worth of rows only to discard them. A missing index, or a query written
// so that the planner cannot use one, shows up here long before anyone feels it. Each statement is
// checked with the generic plan a statement cache keeps for it too (planned without its values).
import { beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { generateLargeDataset, shapeAt } from "@/bench/large-dataset";
import { hashSecret, randomToken } from "@/lib/credentials/secret";
import { db, dbHandle } from "@/lib/db/client";
import { cancelSubscription } from "@/lib/membership/cancel-subscription";
import { listSubscriptionWireRows, listSubscriptions } from "@/lib/membership/list-subscriptions";
import { settleDueSubscriptions } from "@/lib/membership/settle";
import { updateSubscription } from "@/lib/membership/update-subscription";
import { findClient } from "@/lib/oauth/clients";
import { exchangeAuthorizationCode } from "@/lib/oauth/grants/authorization-code";
import { exchangeRefreshToken } from "@/lib/oauth/grants/refresh-token";
import { s256 } from "@/lib/oauth/pkce";
import { findActiveAccessToken } from "@/lib/oauth/active-access-token";
import { DEFAULT_DEMO_API_KEY, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { seedDemo } from "@/lib/startup/seed/seed";
import { TEST_ACTOR } from "../helpers/audit-actor";
import { listSchoolPayments } from "@/lib/billing/list-school-payments";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { startCheckout } from "@/lib/billing/start-checkout";
import { forgetApiKeys } from "@/lib/credentials/api-key-cache";
import { verifyApiKey } from "@/lib/credentials/verify-api-key";
import { claimDueMails } from "@/lib/mail/deliver";
import { createSubscription } from "@/lib/membership/create-subscription";
import { findPlanWires } from "@/lib/membership/find-plans";
import { findUserWires } from "@/lib/membership/find-users";
import { listPaymentWiresOfSubscriptions } from "@/lib/membership/list-payments";
import { findClientRow, forgetOAuthClients } from "@/lib/oauth/client-cache";
import { genericPlanOf, rowStatementsDuring } from "../helpers/statements";

// 10,000 members, 20,000 subscriptions (15 due), 50,000 payments, 100,000 token rows: small enough
// to generate in seconds, large enough that without an index the planner scans (dropping
// Subscription_userId_idx or Subscription_live_endAt_idx, or the keyset's lower bound, fails here).
const SCALE = 0.05;
// A table with at least this many rows must not be read by a sequential scan on a hot path.
const LARGE_TABLE_ROWS = 5_000;
const ISSUER = "http://demo.localhost";
const REDIRECT_URI = "http://localhost:3000/oauth/callback";
const VERIFIER = "hot-plans-code-verifier-0123456789-abcdefghijklmnop";
const SCHOOL = DEMO_IDS.school;
const shape = shapeAt(SCALE);

interface Captured {
  sql: string;
  args: unknown[];
  name?: string;
}

let pool: pg.Pool;
let largeTables: Set<string>;
let now: Date;


interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

/** What a plan does that grows with the data: a large table scanned, or rows read to be thrown away. */
function waste(node: PlanNode, out: string[] = []): string[] {
  const table = node["Relation Name"];
  if (node["Node Type"] === "Seq Scan" && table && largeTables.has(table)) out.push(`Seq Scan on ${table}`);
  const discarded = (node["Rows Removed by Filter"] ?? 0) * (node["Actual Loops"] ?? 1);
  // An index that only narrows to the school (the keyset page without its lower bound) reads and
  // discards every row before the cursor: no Seq Scan, and as slow.
  if (discarded >= LARGE_TABLE_ROWS) out.push(`${node["Node Type"]}${table ? ` on ${table}` : ""} discards ${discarded} rows`);
  for (const child of node.Plans ?? []) waste(child, out);
  return out;
}

/**
 * Each statement whose plan scans a large table sequentially or discards a large table's worth of
 * rows. Reads are run (EXPLAIN ANALYZE, to count discarded rows); writes are only planned. Each
 * statement with parameters is checked twice: planned for its values, as its first five executions
 * are, and with the generic plan Postgres then caches for it, made without its values. On Postgres
 * only the named ones (lib/db/raw.ts) are cached; on the embedded database every statement Prisma
 * sends is too (lib/db/pglite-statement-cache.ts), and its planner is Postgres's.
 */
async function wastefulPlans(statements: Captured[]): Promise<{ sql: string; waste: string[] }[]> {
  const found: { sql: string; waste: string[] }[] = [];
  for (const s of statements) {
    const read = /^\s*(SELECT|WITH)\b/i.test(s.sql) && !/\b(UPDATE|INSERT|DELETE)\b/i.test(s.sql);
    // An unnamed statement with its parameters, as the driver sends it: planned for these values.
    const { rows } = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
      `EXPLAIN (${read ? "ANALYZE, " : ""}FORMAT JSON) ${s.sql}`,
      s.args as unknown[],
    );
    const w = waste(rows[0]!["QUERY PLAN"][0]!.Plan);
    if (s.args.length) w.push(...waste(await genericPlanOf(s, { analyze: read })).map((x) => `generic plan of ${s.name ?? "an unnamed statement"}: ${x}`));
    if (w.length) found.push({ sql: s.sql, waste: w });
  }
  return found;
}

const cursorOf = (row: { createdAt: Date; id: string }) =>
  Buffer.from(JSON.stringify({ c: row.createdAt.toISOString(), i: row.id })).toString("base64url");

/** Subscription number k of the generator (its ids are md5-derived), with its createdAt. */
async function generatedSubscription(k: number): Promise<{ id: string; createdAt: Date; planType: string }> {
  const { rows } = await pool.query<{ id: string; createdAt: Date; planType: string }>(
    `SELECT s."id"::text AS "id", s."createdAt", p."planType"::text AS "planType"
       FROM "Subscription" s JOIN "MembershipPlan" p ON p."id" = s."planId" WHERE s."id" = md5('large-sub-' || $1::int)::uuid`,
    [k],
  );
  return rows[0]!;
}

beforeAll(async () => {
  const driver = dbHandle().driver;
  if (driver.kind !== "pg") throw new Error("tests/pg runs on Postgres only");
  pool = driver.pool;
  await seedDemo({ prisma: db() });
  const client = await pool.connect();
  try {
    await generateLargeDataset((sql) => client.query(sql), { schoolId: SCHOOL, scale: SCALE, clientId: "demo-public-app" });
  } finally {
    client.release();
  }
  const { rows } = await pool.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples >= $1`,
    [LARGE_TABLE_ROWS],
  );
  largeTables = new Set(rows.map((r) => r.relname));
  now = new Date();
}, 300_000);


describe("hot statements on the large dataset (Postgres): no sequential scan of a large table", () => {
  it("the dataset is large where it matters", () => {
    for (const t of ["Subscription", "User", "SchoolMembership", "Payment", "OAuthAccessToken", "OAuthRefreshToken", "WebhookDelivery"]) {
      expect(largeTables, t).toContain(t);
    }
  });

  it("the lazy settle's due check, for a school and for a user's plan; the due rows are settled", async () => {
    let settled = 0;
    const first = await rowStatementsDuring(async () => {
      settled = (await settleDueSubscriptions({ now, schoolId: SCHOOL })).expired;
    });
    expect(settled).toBe(shape.dueSubscriptions);
    const idle = await rowStatementsDuring(() => settleDueSubscriptions({ now, schoolId: SCHOOL }));
    const all = await rowStatementsDuring(() => settleDueSubscriptions({ now }));
    const sub = await generatedSubscription(7);
    const { rows } = await pool.query<{ userId: string; planId: string }>(`SELECT "userId"::text, "planId"::text FROM "Subscription" WHERE "id" = $1::uuid`, [sub.id]);
    const forUser = await rowStatementsDuring(() => settleDueSubscriptions({ now, schoolId: SCHOOL, userId: rows[0]!.userId, planId: rows[0]!.planId }));
    expect(idle.length).toBe(1);
    expect(await wastefulPlans([...first, ...idle, ...all, ...forUser])).toEqual([]);
  });

  it("subscriptions(email:), the first page, a deep keyset page and state/plan filters", async () => {
    const deep = await generatedSubscription(Math.floor(shape.subscriptions * 0.85));
    const pages = await rowStatementsDuring(async () => {
      const byEmail = await listSubscriptionWireRows({ schoolId: SCHOOL, filter: { email: "large-member-42@large.bench.test" }, now });
      expect(byEmail.nodes.length).toBeGreaterThan(0);
      await listSubscriptionWireRows({ schoolId: SCHOOL, filter: { first: 50 }, now });
      const page = await listSubscriptionWireRows({ schoolId: SCHOOL, filter: { first: 50, after: cursorOf(deep) }, now });
      expect(page.nodes[0]!.createdAtMs).toBeGreaterThanOrEqual(deep.createdAt.getTime());
      await listSubscriptionWireRows({ schoolId: SCHOOL, filter: { first: 50, state: "trialing", after: cursorOf(deep) }, now });
    });
    expect(pages.length).toBeGreaterThanOrEqual(8);
    expect(await wastefulPlans(pages)).toEqual([]);
  });

  it("MCP list_subscriptions' query (with plan and user)", async () => {
    const deep = await generatedSubscription(Math.floor(shape.subscriptions * 0.6));
    const statements = await rowStatementsDuring(async () => {
      await listSubscriptions({ schoolId: SCHOOL, filter: { first: 50 }, now });
      await listSubscriptions({ schoolId: SCHOOL, filter: { first: 50, after: cursorOf(deep) }, now });
      await listSubscriptions({ schoolId: SCHOOL, filter: { email: "large-member-7@large.bench.test", state: "active" }, now });
    });
    expect(await wastefulPlans(statements)).toEqual([]);
  });

  it("updateSubscription and cancelSubscription: their reads and writes", async () => {
    // k % 10 = 7: a live subscription with no cancellation scheduled.
    const [a, b] = [await generatedSubscription(17), await generatedSubscription(27)];
    const statements = await rowStatementsDuring(async () => {
      const end = Math.floor(now.getTime() / 1000) + 60 * 86_400;
      const updated = await updateSubscription({ actor: TEST_ACTOR, schoolId: SCHOOL, input: { id: a.id, currentPeriodEnd: end }, now });
      expect(updated.errors).toEqual([]);
      const canceled = await cancelSubscription({ actor: TEST_ACTOR, schoolId: SCHOOL, input: { id: b.id, cancelAtPeriodEnd: true }, now });
      expect(canceled.errors).toEqual([]);
    });
    expect(statements.filter((s) => s.sql.includes('"Subscription"')).length).toBeGreaterThanOrEqual(6);
    expect(await wastefulPlans(statements)).toEqual([]);
  });

  it("payments (school-wide): the first page, a deep page, by state, by member, by time", async () => {
    const [deep] = (await pool.query<{ id: string; createdAt: Date }>(`SELECT "id"::text AS "id", "createdAt" FROM "Payment" WHERE "schoolId" = $1 ORDER BY "createdAt" DESC, "id" DESC OFFSET $2 LIMIT 1`, [SCHOOL, Math.floor(shape.payments * 0.6)])).rows;
    const member = await generatedSubscription(7);
    const { rows: [owner] } = await pool.query<{ userId: string }>(`SELECT "userId"::text AS "userId" FROM "Subscription" WHERE "id" = $1`, [member.id]);
    const since = Math.floor(now.getTime() / 1000) - 3_600;
    const statements = await rowStatementsDuring(async () => {
      await listSchoolPayments({ schoolId: SCHOOL, filter: { first: 50 } });
      await listSchoolPayments({ schoolId: SCHOOL, filter: { first: 50, after: cursorOf(deep!) } });
      await listSchoolPayments({ schoolId: SCHOOL, filter: { state: "failed" } });
      await listSchoolPayments({ schoolId: SCHOOL, filter: { state: "failed", after: cursorOf(deep!) } });
      await listSchoolPayments({ schoolId: SCHOOL, filter: { userId: owner!.userId } });
      await listSchoolPayments({ schoolId: SCHOOL, filter: { since } });
    });
    expect(await wastefulPlans(statements)).toEqual([]);
  });

  it("auditEvents: the first page, a deep page and each filter", async () => {
    // The generated dataset has no audit log: 20,000 rows of this school, four actor types and
    // twenty actions and targets, over the last 20,000 minutes.
    await pool.query(
      `INSERT INTO "AuditEvent" ("id", "schoolId", "actorType", "actorLabel", "action", "targetType", "targetId", "summary", "createdAt")
       SELECT gen_random_uuid(), $1, (ARRAY['member', 'api_key', 'oauth_client', 'system'])[1 + a % 4]::"AuditActorType", 'large',
              'subscription.a' || (a % 20), 'subscription', md5('large-target-' || (a % 20)), '{}', now() - a * interval '1 minute'
         FROM generate_series(1, 20000) AS a`,
      [SCHOOL],
    );
    await pool.query(`ANALYZE "AuditEvent"`);
    largeTables.add("AuditEvent");
    const [deep] = (await pool.query<{ id: string; createdAt: Date }>(`SELECT "id"::text AS "id", "createdAt" FROM "AuditEvent" WHERE "schoolId" = $1 ORDER BY "createdAt" DESC, "id" DESC OFFSET 12000 LIMIT 1`, [SCHOOL])).rows;
    const statements = await rowStatementsDuring(async () => {
      await listAuditEvents({ schoolId: SCHOOL, filter: { first: 50 } });
      await listAuditEvents({ schoolId: SCHOOL, filter: { first: 50, after: cursorOf(deep!) } });
      await listAuditEvents({ schoolId: SCHOOL, filter: { actorType: "system", after: cursorOf(deep!) } });
      await listAuditEvents({ schoolId: SCHOOL, filter: { action: "subscription.a3" } });
      const { rows: [t] } = await pool.query<{ id: string }>(`SELECT md5('large-target-5') AS "id"`);
      await listAuditEvents({ schoolId: SCHOOL, filter: { targetId: t!.id } });
      await listAuditEvents({ schoolId: SCHOOL, filter: { since: Math.floor(now.getTime() / 1000) - 600 } });
    });
    expect(await wastefulPlans(statements)).toEqual([]);
  });

  it("token refresh and introspection reads", async () => {
    const client = (await findClient("demo-public-app"))!;
    const token = `shr_${randomToken(32)}`;
    const grant = await db().oAuthGrant.create({
      data: { clientId: client.clientId, userId: DEMO_IDS.users.student, schoolId: SCHOOL, scope: "offline_access courses:read", issuer: ISSUER },
    });
    await db().oAuthRefreshToken.create({
      data: { tokenHash: hashSecret(token), grantId: grant.id, clientId: client.clientId, scope: grant.scope, expiresAt: new Date(now.getTime() + 3_600_000) },
    });
    let access = "";
    const statements = await rowStatementsDuring(async () => {
      const body = await exchangeRefreshToken({ client, form: new Map([["refresh_token", token]]), issuer: ISSUER, now });
      access = body.access_token;
      expect(await findActiveAccessToken({ token: access, issuer: ISSUER, now })).not.toBeNull();
    });
    expect(statements.length).toBeGreaterThanOrEqual(2);
    expect(await wastefulPlans(statements)).toEqual([]);
  });

  it("the authorization code exchange: the code with its grant and member, then its consumption", async () => {
    const client = (await findClient("demo-public-app"))!;
    const code = `shc_${randomToken(32)}`;
    const grant = await db().oAuthGrant.create({
      data: { clientId: client.clientId, userId: DEMO_IDS.users.student, schoolId: SCHOOL, scope: "openid offline_access", issuer: ISSUER },
    });
    await db().oAuthAuthorizationCode.create({
      data: {
        codeHash: hashSecret(code),
        grantId: grant.id,
        clientId: client.clientId,
        redirectUri: REDIRECT_URI,
        scope: grant.scope,
        codeChallenge: s256(VERIFIER),
        codeChallengeMethod: "S256",
        expiresAt: new Date(now.getTime() + 60_000),
      },
    });
    const form = new Map([["code", code], ["redirect_uri", REDIRECT_URI], ["code_verifier", VERIFIER]]);
    const statements = await rowStatementsDuring(async () => {
      const body = await exchangeAuthorizationCode({ client, form, issuer: ISSUER, now });
      expect(body.id_token).toEqual(expect.any(String));
    });
    expect(statements.filter((st) => st.sql.includes('"OAuthAuthorizationCode"'))).toHaveLength(2);
    expect(await wastefulPlans(statements)).toEqual([]);
  });

  it("the other named statements: the Admin API's batched reads, credentials, a new member, a checkout, the mail queue", async () => {
    // The generated dataset has no mail: 20,000 sent mails of this school (a school of this size
    // has sent one to each member), and the pending ones the new member below adds.
    await pool.query(
      `INSERT INTO "MailMessage" ("id", "schoolId", "kind", "to", "status", "attemptCount", "sentAt", "createdAt")
       SELECT gen_random_uuid(), $1, 'welcome', 'large-member-' || a || '@large.bench.test', 'sent', 1, now() - a * interval '1 minute', now() - a * interval '1 minute'
         FROM generate_series(1, 20000) AS a`,
      [SCHOOL],
    );
    await pool.query(`ANALYZE "MailMessage"`);
    largeTables.add("MailMessage");
    const subs = await Promise.all([3, 13, 23].map(generatedSubscription));
    const { rows: owners } = await pool.query<{ userId: string; planId: string }>(
      `SELECT "userId"::text AS "userId", "planId"::text AS "planId" FROM "Subscription" WHERE "id" = ANY($1::uuid[])`,
      [subs.map((x) => x.id)],
    );
    const statements = await rowStatementsDuring(async () => {
      await findPlanWires({ schoolId: SCHOOL, ids: owners.map((o) => o.planId) });
      await findUserWires({ ids: owners.map((o) => o.userId) });
      await listPaymentWiresOfSubscriptions({ subscriptionIds: subs.map((x) => x.id) });
      forgetApiKeys();
      await verifyApiKey({ key: DEFAULT_DEMO_API_KEY, now });
      forgetOAuthClients();
      expect(await findClientRow("demo-public-app")).not.toBeNull();
      const created = await createSubscription({ actor: TEST_ACTOR, schoolId: SCHOOL, input: { email: "hot-plans.new@example.com", name: "New Member", planId: DEMO_IDS.plans.monthly }, now });
      expect(created.errors).toEqual([]);
      const started = await startCheckout({ schoolId: SCHOOL, input: { planId: DEMO_IDS.plans.monthly, email: "hot-plans.buyer@example.com", name: "Buyer" }, member: null, origin: ISSUER, now });
      expect(started.errors).toEqual([]);
      expect((await claimDueMails({ now: new Date(now.getTime() + 60_000), limit: 10 })).length).toBeGreaterThan(0);
    });
    const named = new Set(statements.flatMap((x) => (x.name ? [x.name] : [])));
    for (const name of ["admin-find-plans", "admin-find-users", "admin-payments-of-subscriptions", "load-api-key", "api-key-used", "load-oauth-client", "subscribe-new-member", "start-checkout", "checkout-provider-session", "claim-due-mails"]) {
      expect(named, name).toContain(name);
    }
    expect(await wastefulPlans(statements)).toEqual([]);
  });
});
