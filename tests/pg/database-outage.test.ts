// A database outage, on a Postgres of this test's own (initdb in a temporary directory, its own
// port): stopped with `pg_ctl -m immediate` under a small load, then started again. Every endpoint
// must answer 503 + Retry-After in its own format (never 500), cached storefront pages keep
// answering 200 marked stale, no write is reported done unless it committed, Idempotency-Key
// retries work, the service recovers within a second without a restart, and a Redis outage at the
// same time changes nothing else. The route handlers run in this process (tests/helpers/app-server);
// pages, proxy.ts and the real Next.js server are covered by tests/e2e/database-outage.spec.ts.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "@/lib/startup/bootstrap";
import { closeDbHandle, createDbHandle, db, setDbHandle, type DbHandle } from "@/lib/db/client";
import { clearContentCache } from "@/lib/db/content-cache";
import { createPgDriver } from "@/lib/db/driver";
import { migrate } from "@/lib/db/migrator";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { resetAdminRateLimiter } from "@/lib/rate-limit";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { freePort, ownRedis, redisServerAvailable, type OwnRedis } from "../helpers/outage";
import { createPgCluster, postgresBinDir, type PgCluster } from "../helpers/pg-cluster";
import { ACME_API_KEY, CREATE, FULL_KEY, PLANS } from "../integration/admin-api/helpers";
import { form, signIn, tokensFor, type TokenBody } from "../integration/oauth/helpers";

const binDir = postgresBinDir();
const withRedis = redisServerAvailable();
if (!binDir) console.warn("tests/pg/database-outage.test.ts skipped: initdb not found (install the PostgreSQL server package or set PG_BIN_DIR)");
else if (!withRedis) console.warn("tests/pg/database-outage.test.ts: redis-server not installed, so the Redis-outage part is skipped");

const CRON_SECRET = "outage-test-cron-secret";
const QUERY = "query { membershipPlans { id } }";
/** Built before the outage (so served stale during it). */
const CACHED = ["/api/md/home", "/api/md/courses", "/api/md/courses/intro-to-sql", "/api/md/lecturers/tomas-rivera", "/llms.txt", "/llms-full.txt", "/openapi.json"];
/** Never requested before the outage (so 503 during it). */
const NEVER_BUILT = "/api/md/posts/five-sql-mistakes";

interface Seen {
  status: number;
  type: string | null;
  retryAfter: string | null;
  warning: string | null;
  body: string;
}

async function see(res: Response): Promise<Seen> {
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    retryAfter: res.headers.get("retry-after"),
    warning: res.headers.get("warning"),
    body: await res.text(),
  };
}

const json = (s: Seen) => JSON.parse(s.body) as Record<string, unknown>;

describe.skipIf(!binDir)("database outage (own Postgres, own Redis)", () => {
  let cluster: PgCluster;
  let redis: OwnRedis | undefined;
  let handle: DbHandle;
  let app: AppServer;
  let cookie: string;
  let tokens: TokenBody;
  const before = new Map<string, string>();

  const gql = async (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, key = FULL_KEY) =>
    app.fetch("/admin/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": key, ...headers },
      body: JSON.stringify({ query, variables }),
    });

  beforeAll(async () => {
    cluster = createPgCluster({ port: await freePort(5470, 5479), binDir: binDir! });
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query("CREATE DATABASE app");
    await admin.end();
    handle = createDbHandle(createPgDriver(cluster.url("app"), { max: 10 }));
    await migrate({ driver: handle.driver });
    await seedDemo({ prisma: handle.prisma });
    setDbHandle(handle);

    if (withRedis) {
      redis = ownRedis(await freePort(6390, 6399));
      await redis.start();
      process.env.REDIS_URL = redis.url;
    }
    process.env.CRON_SECRET = CRON_SECRET;
    resetEnvCache();
    await resetAdminRateLimiter();
    clearSchoolCache();
    clearContentCache();
    app = await startAppServer({ host: "demo.localhost" });

    cookie = await signIn(app, "student@schoolhouse.test");
    tokens = await tokensFor(app, cookie);
    for (const path of CACHED) {
      const res = await app.fetch(path);
      expect(res.status, path).toBe(200);
      before.set(path, await res.text());
    }
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
    delete process.env.REDIS_URL;
    delete process.env.CRON_SECRET;
    resetEnvCache();
    await resetAdminRateLimiter();
    setDbHandle(undefined);
    if (handle) await closeDbHandle(handle).catch(() => {});
    cluster?.destroy();
  }, 60_000);

  /** What every endpoint answers right now (the outage checks compare two of these). */
  /** A tools/call on /mcp with the Admin API key as bearer (the API-key path needs the database). */
  const mcpCall = (name: string): RequestInit => ({
    method: "POST",
    headers: {
      authorization: `Bearer ${FULL_KEY}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });

  async function everyEndpoint(): Promise<Record<string, Seen>> {
    const out: Record<string, Seen> = {};
    out.adminQuery = await see(await gql(QUERY));
    out.adminMutation = await see(
      await gql(CREATE, { input: { email: `during-${randomUUID()}@example.com`, name: "During", planId: PLANS.monthly } }, { "idempotency-key": randomUUID() }),
    );
    out.token = await see(await app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "demo-public-app" })));
    out.revoke = await see(await app.fetch("/api/oauth/revoke", form({ token: tokens.access_token, client_id: "demo-public-app" })));
    out.introspect = await see(await app.fetch("/api/oauth/introspect", form({ token: tokens.access_token, client_id: "demo-public-app" })));
    out.userinfo = await see(await app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } }));
    out.register = await see(
      await app.fetch("/api/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Zapier" }) }),
    );
    out.authorize = await see(
      await app.fetch(
        `/oauth/authorize?response_type=code&client_id=demo-public-app&redirect_uri=${encodeURIComponent("http://localhost:3000/oauth/callback")}&code_challenge=x&code_challenge_method=S256`,
        { headers: { cookie } },
      ),
    );
    // Login: Auth.js's CSRF token needs no database; checking the password does.
    const csrfRes = await app.fetch("/api/auth/csrf");
    const csrfCookie = csrfRes.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    out.login = await see(
      await app.fetch("/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
        body: new URLSearchParams({ csrfToken, email: "student@schoolhouse.test", password: "schoolhouse-demo", callbackUrl: "/" }),
      }),
    );
    out.mcp = await see(await app.fetch("/mcp", mcpCall("list_membership_plans")));
    out.cron = await see(await app.fetch("/api/cron/subscriptions", { headers: { authorization: `Bearer ${CRON_SECRET}` } }));
    out.health = await see(await app.fetch("/api/health"));
    out.ready = await see(await app.fetch("/api/health/ready"));
    out.discovery = await see(await app.fetch("/.well-known/oauth-authorization-server"));
    out.neverBuilt = await see(await app.fetch(NEVER_BUILT));
    out.unknownSchoolHost = await see(await app.fetch("/api/md/home", { headers: { host: "never-seen.localhost:3000" } }));
    for (const path of CACHED) out[path] = await see(await app.fetch(path));
    return out;
  }

  /** The parts of an answer that must not change when Redis goes down too. */
  const shape = (all: Record<string, Seen>) =>
    Object.fromEntries(
      Object.entries(all).map(([k, s]) => [k, { status: s.status, type: s.type, retryAfter: s.retryAfter, warning: k === "/openapi.json" ? "(school cache)" : s.warning }]),
    );

  // Writes made by the load: each must be reported done only if it committed.
  interface Write {
    email: string;
    key: string;
    status: number;
    reportedDone: boolean;
  }
  const writes: Write[] = [];
  const loadStatuses: number[] = [];
  let during: Record<string, Seen>;

  it("under a small load, stopping the database: every endpoint answers in its own format, 503 + Retry-After, or the cached copy marked stale", async () => {
    let running = true;
    const writer = async () => {
      while (running) {
        const email = `load-${randomUUID()}@example.com`;
        const key = randomUUID();
        const res = await gql(CREATE, { input: { email, name: "Load", planId: PLANS.monthly } }, { "idempotency-key": key }).catch(() => null);
        if (!res) continue;
        const body = (await res.json().catch(() => null)) as { data?: { createSubscription?: { errors: string[]; subscription: unknown } } } | null;
        const payload = body?.data?.createSubscription;
        writes.push({ email, key, status: res.status, reportedDone: res.status === 200 && payload?.errors.length === 0 && payload.subscription !== null });
        loadStatuses.push(res.status);
        // A client as the spec asks: after a 503 it waits Retry-After. (Looping at once produced
        // hundreds of refused writes whose retries, which count like every request, then
        // outnumbered the key's 200 mutations per minute.)
        if (res.status === 503) {
          const until = Date.now() + Number(res.headers.get("retry-after") ?? 1) * 1000;
          while (running && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const reader = async () => {
      while (running) {
        for (const path of ["/api/md/courses/intro-to-sql", "/llms.txt", "/admin/graphql"]) {
          const res = path === "/admin/graphql" ? await gql(QUERY) : await app.fetch(path);
          await res.arrayBuffer();
          loadStatuses.push(res.status);
        }
      }
    };
    const load = [writer(), writer(), reader()];
    // Stop it once the load is well under way (a few writes done).
    const until = Date.now() + 30_000;
    while (writes.filter((w) => w.reportedDone).length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    cluster.stop("immediate");
    await new Promise((r) => setTimeout(r, 300));

    during = await everyEndpoint();
    running = false;
    await Promise.all(load);

    // The load saw successes before the stop and 503s after it; never anything else.
    expect(new Set(loadStatuses)).toEqual(new Set([200, 503]));
    expect(writes.some((w) => w.reportedDone)).toBe(true);
    expect(writes.some((w) => w.status === 503)).toBe(true);

    // Admin API: GraphQL errors with SERVICE_UNAVAILABLE, nothing else in the body.
    for (const name of ["adminQuery", "adminMutation"]) {
      const s = during[name]!;
      expect(s.status, name).toBe(503);
      expect(s.retryAfter, name).toBe("5");
      expect(s.type).toContain("application/json");
      const errors = json(s).errors as Array<{ message: string; extensions: { code: string } }>;
      expect(errors[0]!.extensions.code).toBe("SERVICE_UNAVAILABLE");
      expect(errors[0]!.message).toMatch(/temporarily unavailable.*retry in 5 seconds/i);
      expect(s.body).not.toMatch(/prisma|ECONNREFUSED|127\.0\.0\.1|stack/i);
    }
    // OAuth endpoints: RFC 6749's temporarily_unavailable.
    for (const name of ["token", "revoke", "introspect", "userinfo", "register"]) {
      const s = during[name]!;
      expect(s.status, name).toBe(503);
      expect(s.retryAfter, name).toBe("5");
      expect(s.type, name).toContain("application/json");
      expect(json(s), name).toMatchObject({ error: "temporarily_unavailable" });
    }
    // Pages a member sees: a clear HTML page.
    for (const name of ["authorize", "login"]) {
      const s = during[name]!;
      expect(s.status, name).toBe(503);
      expect(s.retryAfter, name).toBe("5");
      expect(s.type, name).toContain("text/html");
      expect(s.body, name).toContain("Temporarily unavailable");
    }
    // MCP: a JSON-RPC error, so agents' clients retry.
    expect(during.mcp).toMatchObject({ status: 503, retryAfter: "5" });
    expect(during.mcp!.type).toContain("application/json");
    expect(json(during.mcp!)).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/database is unavailable.*retry/i) } });
    expect(during.mcp!.body).not.toMatch(/prisma|ECONNREFUSED|127\.0\.0\.1|stack/i);
    expect(during.cron).toMatchObject({ status: 503, retryAfter: "5" });
    expect(json(during.cron!)).toMatchObject({ error: "temporarily_unavailable" });
    // Health: unavailable; readiness: not ready.
    expect(during.health).toMatchObject({ status: 503, retryAfter: "5" });
    expect(json(during.health!)).toMatchObject({ status: "unavailable", database: "unreachable", databaseReason: "unreachable" });
    expect(during.ready).toMatchObject({ status: 503, retryAfter: "5", body: "not ready: database unavailable\n" });
    // Storefront: what was built is served stale, with the marker; the rest is a markdown 503.
    for (const path of CACHED) {
      const s = during[path]!;
      expect(s.status, path).toBe(200);
      expect(s.body, path).toBe(before.get(path));
      // openapi.json needs only the school row, which every request takes from a 10 s cache: within
      // that it is as fresh as ever; after it, the last row seen is used and the answer marked.
      if (path !== "/openapi.json") expect(s.warning, path).toBe('110 - "Response is Stale"');
    }
    expect(during.discovery!.status).toBe(200);
    for (const name of ["neverBuilt", "unknownSchoolHost"]) {
      const s = during[name]!;
      expect(s.status, name).toBe(503);
      expect(s.retryAfter, name).toBe("5");
      expect(s.type, name).toContain("text/markdown");
      expect(s.body, name).toMatch(/^---\ntype: "error"\nstatus: 503\ntitle: "Temporarily unavailable"\n[^]*retry_after: 5\n---\n\n# Temporarily unavailable\n/);
    }
  }, 90_000);

  it.skipIf(!withRedis)("with Redis down at the same time, every answer is the same", async () => {
    await redis!.stop();
    const both = await everyEndpoint();
    expect(shape(both)).toEqual(shape(during));
    expect(json(both.health!)).toMatchObject({ status: "unavailable", rateLimits: { store: "redis", scope: "per_instance", reachable: false } });
  }, 60_000);

  it("recovers within a second of the database coming back, without a restart; Redis still down is only 'degraded'", async () => {
    const redisDown = withRedis;
    cluster.start();
    const started = performance.now();
    for (;;) {
      const res = await app.fetch("/api/health/ready");
      if (res.status === 200) break;
      expect(performance.now() - started, "ready within 1 s of the database").toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(performance.now() - started).toBeLessThan(1000);
    const health = await app.fetch("/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject(
      redisDown ? { status: "degraded", database: "ok", rateLimits: { scope: "per_instance", reachable: false } } : { status: "ok", database: "ok" },
    );
    // Everything answers normally again: fresh pages, no marker; the Admin API under per-instance limits.
    const md = await app.fetch("/api/md/courses/intro-to-sql");
    expect(md.status).toBe(200);
    expect(md.headers.get("warning")).toBeNull();
    expect((await app.fetch(NEVER_BUILT)).status).toBe(200);
    expect((await gql(QUERY)).status).toBe(200);
    const token = await app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "demo-public-app" }));
    expect(token.status).toBe(200);
    const mcp = await app.fetch("/mcp", mcpCall("list_membership_plans"));
    expect(mcp.status).toBe(200);
    const recovered = (await mcp.json()) as { result: { isError?: boolean; structuredContent: { plans: unknown[] } } };
    expect(recovered.result.isError).toBeUndefined();
    expect(recovered.result.structuredContent.plans.length).toBeGreaterThan(0);

    if (!redis) return;
    await redis.start();
    // The Redis client reconnects with its own backoff (at most 2 s).
    await expect
      .poll(async () => (await app.fetch("/api/health")).json(), { timeout: 10_000, interval: 200 })
      .toMatchObject({ status: "ok", rateLimits: { store: "redis", scope: "shared", reachable: true } });
  }, 60_000);

  it("no write was reported done unless it committed, and every 503'd write succeeds when retried with its Idempotency-Key", async () => {
    for (const w of writes) {
      const count = await db().subscription.count({ where: { user: { email: w.email } } });
      if (w.reportedDone) expect(count, `${w.email} was reported done`).toBe(1);
      else expect(count, `${w.email} answered ${w.status}`).toBeLessThanOrEqual(1);
    }
    // The client's retry: same key, same body. A claim the outage left behind is released in the
    // background once the database is back, so the retry executes (at most one 409 wait).
    for (const w of writes.filter((x) => !x.reportedDone)) {
      const deadline = Date.now() + 20_000;
      let res: Response;
      for (;;) {
        res = await gql(CREATE, { input: { email: w.email, name: "Load", planId: PLANS.monthly } }, { "idempotency-key": w.key });
        if (res.status !== 409 || Date.now() > deadline) break;
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(res.status, w.email).toBe(200);
      const body = (await res.json()) as { data: { createSubscription: { errors: string[] } } };
      // Executed now, or (if it had committed after all) refused as a duplicate: never two rows.
      expect([[], ["User already subscribed to this plan"]]).toContainEqual(body.data.createSubscription.errors);
      expect(await db().subscription.count({ where: { user: { email: w.email } } })).toBe(1);
    }
  }, 90_000);

  it("charged no rate-limit budget for the operations the outage refused", async () => {
    // The acme key made no calls before: its window holds only what was executed.
    const first = (await (await gql(QUERY, {}, {}, ACME_API_KEY)).json()) as { extensions: { rate_limit: { per_minute: { used: number } } } };
    const used = first.extensions.rate_limit.per_minute.used;
    cluster.stop("immediate");
    for (let i = 0; i < 5; i++) {
      const res = await gql(QUERY, {}, {}, ACME_API_KEY);
      expect(res.status).toBe(503);
      expect(res.headers.get("ratelimit-remaining")).toBeNull();
      await res.arrayBuffer();
    }
    cluster.start();
    const after = (await (await gql(QUERY, {}, {}, ACME_API_KEY)).json()) as { extensions: { rate_limit: { per_minute: { used: number } } } };
    expect(after.extensions.rate_limit.per_minute.used).toBe(used + 1);
  }, 60_000);

  it("start-up on an unreachable database waits for it with backoff, says so in one line, and carries on once it is up", async () => {
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query("CREATE DATABASE startup");
    await admin.end();
    cluster.stop("immediate");
    const fresh = createDbHandle(createPgDriver(cluster.url("startup"), { max: 2 }));
    setDbHandle(fresh);
    process.env.SEED_ON_START = "0";
    resetEnvCache();
    const lines: string[] = [];
    try {
      const started = bootstrap({ log: (line) => lines.push(line) });
      await new Promise((r) => setTimeout(r, 1_000));
      cluster.start();
      await started;
      expect(lines.filter((l) => l.startsWith("database "))).toEqual([
        `database unreachable at DATABASE_URL (127.0.0.1:${cluster.port}/startup); retrying with backoff for up to 30 s`,
      ]);
      // It went on to migrate the database it waited for.
      expect(lines.some((l) => l.startsWith("applied migrations:"))).toBe(true);
    } finally {
      delete process.env.SEED_ON_START;
      resetEnvCache();
      setDbHandle(handle);
      await closeDbHandle(fresh).catch(() => {});
    }
  }, 60_000);
});
