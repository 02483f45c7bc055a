// CPU time per request of the Admin handler, the token endpoint and the floors, driven in process
// (no HTTP, no Next.js) on a migrated, seeded in-memory PGlite (or DATABASE_URL's Postgres with
// --postgres: a scratch database is NOT made, so point it at a throwaway one). CPU time from
// process.cpuUsage() does not depend on what else the machine runs, unlike throughput, so this is
// how to compare two versions of a hot path on a shared machine (docs/benchmarks.md, "Profiling a miss").
//
//   npx tsx bench/cpu-per-request.ts <path> [requests] [--concurrency n] [--sql] [--profile file]
//   paths: abuse (the fairness scenario's abuser: 4 aliased pages of 100 subscriptions with plan, user and payments), update (the bench's updateSubscription over those subscriptions in turn), typename, courses, courses-all (every scalar, as the bench's courses-query), create (email in the document), create-vars, refresh (openid: signs an ID token),
//          refresh-no-openid (the same grant without openid), introspect (RFC 7662, a live access token by its public client), floor-write, floor-read,
//          mcp-search (POST /mcp search_catalog "sql"), mcp-create (POST /mcp create_subscription, fresh user)
//   --sql: CPU spent inside each PGlite statement, named statements by name (run with --concurrency 1 for exact attribution);
//          on Postgres, the statements (round trips) per request, by text
//   --profile: V8 CPU profile of the measured part (open in Chrome DevTools)
//   --heap-profile: V8's sampling heap profile of the measured part, counting what was collected too
//          (every allocation, not what stays): prints the bytes allocated per request and the functions
//          that allocate most; the file opens in Chrome DevTools (Memory, .heapprofile)
//   --enforce: the API key has enforceLimits=true (the bench's limiter-on; default: counted only, limiter-off)
import { randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import { TEST_ACTOR } from "../tests/helpers/audit-actor";
import { PAGE, ROWS } from "./fairness";
import { statCpuMs } from "./proc-cpu";

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { concurrency: { type: "string" }, sql: { type: "boolean" }, profile: { type: "string" }, "heap-profile": { type: "string" }, postgres: { type: "boolean" }, enforce: { type: "boolean" } },
});
const PATHS = ["abuse", "update", "typename", "courses", "courses-all", "create", "create-vars", "refresh", "refresh-no-openid", "introspect", "floor-write", "floor-read", "mcp-search", "mcp-create"];
const which = positionals[0] ?? "typename";
if (!PATHS.includes(which)) {
  console.error(`usage: cpu-per-request.ts <${PATHS.join("|")}> [requests] [--concurrency n] [--sql] [--profile file] [--postgres]`);
  process.exit(2);
}
const requests = Number(positionals[1] ?? 1000);
const concurrency = Number(opts.concurrency ?? 8);

// As the bench server runs: production, limits far above the load, the production revalidation bound.
Object.assign(process.env, {
  NODE_ENV: "production",
  STOREFRONT_REVALIDATE_MS: "1000",
  RATE_LIMIT_QUERIES: "1000000000",
  RATE_LIMIT_MUTATIONS: "1000000000",
  RATE_LIMIT_STORE: "memory",
  REDIS_URL: "",
  BENCH_FLOOR_ROUTES: "1",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
});

const { closeDbHandle, createDbHandle, setDbHandle } = await import("../lib/db/client");
const { createPgDriver, createPgliteDriver } = await import("../lib/db/driver");
const { migrate } = await import("../lib/db/migrator");
const { seedDemo } = await import("../lib/startup/seed/seed");
const { randomDemoCredentials } = await import("../lib/startup/seed/demo-credentials");
const { DEMO_IDS } = await import("../lib/startup/seed/demo-data");
const { createAdminHandler } = await import("../lib/admin-api/handler");
const { adminRateLimitPlugin } = await import("../lib/rate-limit");
const { createApiKey } = await import("../lib/admin-api/api-keys");
const { ALL_PERMISSIONS } = await import("../lib/credentials/permissions");
const { floorRead, floorWrite } = await import("./floors");
const { handleTokenRequest } = await import("../lib/oauth/token-endpoint");
const { handleIntrospectRequest } = await import("../lib/oauth/introspect");
const { hashSecret, randomToken } = await import("../lib/credentials/secret");
const { handleMcpRequest } = await import("../lib/mcp/handler");

const url = opts.postgres ? process.env.DATABASE_URL : undefined;
if (opts.postgres && !url) throw new Error("--postgres needs DATABASE_URL (a throwaway database)");
const handle = createDbHandle(url ? createPgDriver(url) : createPgliteDriver("memory://"));
setDbHandle(handle);
await migrate({ driver: handle.driver });
await seedDemo({ prisma: handle.prisma, credentials: randomDemoCredentials() });
const { key } = await createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "demo", name: "cpu-per-request", permissions: [ALL_PERMISSIONS], enforceLimits: opts.enforce ?? false });
const admin = createAdminHandler({ plugins: [adminRateLimitPlugin()] });
const ORIGIN = "http://localhost";

/** A grant of the demo student to the demo public client, as a completed authorization leaves it (bench/prepare-db.ts). */
const demoGrant = (scope: string) =>
  handle.prisma.oAuthGrant.create({
    data: { clientId: "demo-public-app", userId: DEMO_IDS.users.student, schoolId: DEMO_IDS.school, scope, issuer: ORIGIN, authTime: new Date(), sessionId: randomUUID() },
  });

// Refresh tokens as a completed authorization leaves them (bench/prepare-db.ts), one chain per in-flight request.
const tokens: string[] = [];
const isRefresh = which === "refresh" || which === "refresh-no-openid";
// The bench's scopes (bench/prepare-db.ts): the openid grant's ID token carries profile, email and roles.
const refreshScope = which === "refresh" ? "openid profile email offline_access courses:read" : "offline_access courses:read";
if (isRefresh) {
  for (let i = 0; i < concurrency * 2; i++) {
    const token = randomToken();
    const grant = await demoGrant(refreshScope);
    await handle.prisma.oAuthRefreshToken.create({
      data: { tokenHash: hashSecret(token), grantId: grant.id, clientId: "demo-public-app", scope: refreshScope, expiresAt: new Date(Date.now() + 30 * 86_400_000) },
    });
    tokens.push(token);
  }
}

// One live access token, presented by every introspection (bench/prepare-db.ts's shape).
let accessToken = "";
if (which === "introspect") {
  accessToken = randomToken();
  const grant = await demoGrant("offline_access courses:read");
  await handle.prisma.oAuthAccessToken.create({
    data: { tokenHash: hashSecret(accessToken), grantId: grant.id, clientId: "demo-public-app", scope: "offline_access courses:read", expiresAt: new Date(Date.now() + 86_400_000) },
  });
}

if (which === "abuse" || which === "update") {
  // The fairness scenario's rows: subscriptions made through the API, 50 aliased mutations a request.
  for (let made = 0; made < ROWS; made += 50) {
    const aliases = Array.from({ length: 50 }, (_, i) => `m${i}: createSubscription(input: { email: "fair.${made + i}@example.com", name: "Fairness ${made + i}", planId: "${DEMO_IDS.plans.monthly}" }) { errors }`);
    const res = await admin(new Request(`${ORIGIN}/admin/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": key, host: "localhost" }, body: JSON.stringify({ query: `mutation { ${aliases.join(" ")} }` }) }));
    if (res.status !== 200) throw new Error(`creating subscriptions → ${res.status} ${await res.text()}`);
  }
}

// update: the bench's updateSubscription (bench/workloads.ts), over those subscriptions in turn.
const { SUBSCRIPTION_DOCUMENTS } = await import("./workloads");
const updateIds = which === "update" ? (await handle.prisma.subscription.findMany({ where: { schoolId: DEMO_IDS.school, user: { email: { startsWith: "fair." } } }, select: { id: true } })).map((r) => r.id) : [];
const updateBase = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;

let n = 0;
function adminBody(): string {
  n++;
  const email = `cpu-${randomUUID()}@bench.schoolhouse.test`;
  switch (which) {
    case "create":
      return JSON.stringify({
        query: `mutation { createSubscription(input: { email: "${email}", name: "Cpu ${n}", planId: "${DEMO_IDS.plans.monthly}" }) { errors subscription { id state } } }`,
      });
    case "create-vars":
      return JSON.stringify({
        query: "mutation C($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id state } } }",
        variables: { input: { email, name: `Cpu ${n}`, planId: DEMO_IDS.plans.monthly } },
      });
    case "courses":
      return JSON.stringify({ query: "{ courses(first: 50) { nodes { id title slug } } }" });
    case "abuse":
      return JSON.stringify({ query: `{ ${Array.from({ length: 4 }, (_, i) => `p${i}: ${PAGE}`).join(" ")} }` });
    case "update":
      return SUBSCRIPTION_DOCUMENTS.update(updateIds[n % updateIds.length]!, updateBase + (n % 86_400));
    case "courses-all":
      return JSON.stringify({ query: "query BenchCourses { courses(first: 50) { nodes { id slug title summary status price currency } } }" });
    default:
      return JSON.stringify({ query: "{ __typename }" });
  }
}

async function one(): Promise<void> {
  if (which === "floor-write") return void (await floorWrite());
  if (which === "floor-read") return void (await floorRead());
  if (isRefresh) {
    const form = new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.shift()!, client_id: "demo-public-app" });
    const res = await handleTokenRequest(
      new Request(`${ORIGIN}/api/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", host: "localhost" }, body: form.toString() }),
    );
    const body = JSON.parse(res.body) as { refresh_token?: string };
    if (!body.refresh_token) throw new Error(`refresh failed: ${JSON.stringify(body)}`);
    tokens.push(body.refresh_token);
    return;
  }
  if (which === "introspect") {
    const body = new URLSearchParams({ token: accessToken, client_id: "demo-public-app" }).toString();
    const res = await handleIntrospectRequest(
      new Request(`${ORIGIN}/api/oauth/introspect`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", host: "localhost" }, body }),
    );
    if (!res.body.includes('"active":true')) throw new Error(`introspection failed: ${res.status} ${res.body}`);
    return;
  }
  if (which === "mcp-search" || which === "mcp-create") return mcpCall();
  const res = await admin(
    new Request(`${ORIGIN}/admin/graphql`, { method: "POST", headers: { "content-type": "application/json", "x-service-api-key": key, host: "localhost" }, body: adminBody() }),
  );
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors":[{')) throw new Error(`${res.status} ${text.slice(0, 300)}`);
}

// As bench/workloads.ts sends them: one stateless tools/call, an Admin API key as Bearer.
async function mcpCall(): Promise<void> {
  n++;
  const params =
    which === "mcp-search"
      ? { name: "search_catalog", arguments: { query: "sql" } }
      : { name: "create_subscription", arguments: { email: `cpu-mcp-${randomUUID()}@bench.schoolhouse.test`, name: `Cpu ${n}`, planId: DEMO_IDS.plans.monthly } };
  const res = await handleMcpRequest(
    new Request(`${ORIGIN}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        authorization: `Bearer ${key}`,
        host: "localhost",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params }),
    }),
  );
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"structuredContent"') || text.includes('"isError":true')) throw new Error(`${res.status} ${text.slice(0, 300)}`);
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

async function run(count: number): Promise<void> {
  let left = count;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (left-- > 0) await one();
  }));
}

await run(Math.min(200, requests)); // warm-up: JIT, caches, prepared statements

// CPU inside each PGlite statement: the process's CPU time while the statement's promise is pending.
const perStatement = new Map<string, { calls: number; ms: number }>();
if (opts.sql && handle.driver.kind === "pglite") {
  type Queryable = { query: (...a: unknown[]) => Promise<unknown> };
  const wrap = (target: Queryable, label: string) => {
    const original = target.query.bind(target);
    target.query = async (...a: unknown[]) => {
      const key = `${label}${String(a[0]).replace(/\s+/g, " ").trim().slice(0, 100)}`;
      const before = process.cpuUsage();
      try {
        return await original(...a);
      } finally {
        const d = process.cpuUsage(before);
        const e = perStatement.get(key) ?? { calls: 0, ms: 0 };
        e.calls++;
        e.ms += (d.user + d.system) / 1000;
        perStatement.set(key, e);
      }
    };
  };
  const pglite = handle.driver.pglite as unknown as Queryable & {
    transaction: (cb: (tx: unknown) => unknown) => Promise<unknown>;
    execProtocol: (message: Uint8Array, options?: unknown) => Promise<unknown>;
    execProtocolRawStream: (message: Uint8Array, options?: unknown) => Promise<unknown>;
  };
  wrap(pglite, "");
  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (cb) =>
    transaction((tx) => {
      wrap(tx as Queryable, "tx: ");
      return cb(tx);
    });
  // Named statements (lib/db/pglite-prepared.ts, pglite-statement-cache.ts) go through the protocol:
  // their Bind message names the statement, and its Bind…Sync messages are charged to that name
  // (prepared through execProtocol, run through execProtocolRawStream; the reading of the answer's
  // rows after that is not charged to the statement).
  let named: string | undefined;
  const charged = <A extends unknown[], R>(run: (message: Uint8Array, ...rest: A) => Promise<R>) =>
    async (message: Uint8Array, ...rest: A): Promise<R> => {
      const type = String.fromCharCode(message[0]!);
      if (type === "B") {
        // Bind: type, int32 length, portal name\0, statement name\0, …
        const portalEnd = message.indexOf(0, 5);
        named = `named: ${Buffer.from(message.subarray(portalEnd + 1, message.indexOf(0, portalEnd + 1))).toString("utf8")}`;
      }
      // Bind…Sync travel as one buffer (or Sync alone after an early end): the cycle ends at a Sync,
      // which is the buffer's last message (S, int32 length 4).
      const endsWithSync = message.length >= 5 && message[message.length - 5] === 0x53 && message[message.length - 1] === 4;
      const before = process.cpuUsage();
      try {
        return await run(message, ...rest);
      } finally {
        if (named) {
          const d = process.cpuUsage(before);
          const e = perStatement.get(named) ?? { calls: 0, ms: 0 };
          e.ms += (d.user + d.system) / 1000;
          if (type === "B") e.calls++;
          perStatement.set(named, e);
          if (endsWithSync) named = undefined;
        }
      }
    };
  pglite.execProtocol = charged(pglite.execProtocol.bind(pglite));
  pglite.execProtocolRawStream = charged(pglite.execProtocolRawStream.bind(pglite));
}

// On Postgres: every statement any pg client sends (Prisma's adapter, the raw driver, the floors),
// counted by its text; each is one round trip (node-postgres sends one statement's messages at once).
if (opts.sql && handle.driver.kind === "pg") {
  const { default: pg } = await import("pg");
  type Query = (...a: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function (this: unknown, ...a: unknown[]) {
    const first = a[0] as string | { text?: string; name?: string };
    const text = typeof first === "string" ? first : (first?.text ?? "");
    const key = `${String(text).replace(/\s+/g, " ").trim().slice(0, 100)}`;
    const e = perStatement.get(key) ?? { calls: 0, ms: 0 };
    e.calls++;
    perStatement.set(key, e);
    return original.apply(this, a);
  } as Query;
}

const session = new Session();
if (opts.profile) {
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}
if (opts["heap-profile"]) {
  if (!opts.profile) session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}
// The main thread alone (Linux): what serializes requests. process.cpuUsage() also counts the
// libuv threadpool, where asynchronous crypto (the ID token's signature) runs.
const mainThreadMs = () => statCpuMs(`/proc/self/task/${process.pid}/stat`);
const cpu0 = process.cpuUsage();
const main0 = mainThreadMs();
const t0 = performance.now();
await run(requests);
const cpu = process.cpuUsage(cpu0);
const mainMs = mainThreadMs() - main0;
const wall = performance.now() - t0;
if (opts.profile) {
  const { profile } = await session.post("Profiler.stop");
  writeFileSync(opts.profile, JSON.stringify(profile));
}
if (opts["heap-profile"]) {
  const { profile } = await session.post("HeapProfiler.stopSampling");
  writeFileSync(opts["heap-profile"], JSON.stringify(profile));
  printAllocations(profile.head);
}

/** Bytes allocated per request, and by the functions that allocated most (self, summed by function). */
function printAllocations(head: HeapNode): void {
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: HeapNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|lib|bench)\//, "$1/")}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) visit(child);
  };
  visit(head);
  console.log(`${(total / requests / 1024).toFixed(1)} KB allocated per request (sampled)`);
  for (const [fn, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${(bytes / requests / 1024).toFixed(1).padStart(8)} KB  ${fn}`);
  }
}

const measuredStatements = [...perStatement];
// Prisma's statements are named by the statement cache (lib/db/pglite-statement-cache.ts): shown by their text.
const cachedText = new Map<string, string>();
if (opts.sql && handle.driver.kind === "pglite") {
  const { rows } = await handle.driver.pglite.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements`);
  for (const { name, statement } of rows) if (name.startsWith("prisma_")) cachedText.set(`named: ${name}`, statement);
}
for (const [sql, { calls, ms }] of measuredStatements.sort((a, b) => b[1].ms - a[1].ms || b[1].calls - a[1].calls).slice(0, 12)) {
  const text = cachedText.get(sql);
  const label = text === undefined ? sql : `cached: ${text.replace(/\s+/g, " ").trim().slice(0, 100)}`;
  console.log(`${(ms / requests).toFixed(3).padStart(8)} ms  ${(calls / requests).toFixed(2)}×  ${label}`);
}
if (opts.sql && handle.driver.kind === "pg") {
  const total = [...perStatement.values()].reduce((sum, e) => sum + e.calls, 0);
  console.log(`${(total / requests).toFixed(2)} statements (round trips) per request`);
}
console.log(
  `${which} on ${handle.driver.kind}: ${((cpu.user + cpu.system) / 1000 / requests).toFixed(3)} ms CPU per request ` +
    `(user ${(cpu.user / 1000 / requests).toFixed(3)}, system ${(cpu.system / 1000 / requests).toFixed(3)}), ` +
    `${(mainMs / requests).toFixed(3)} ms on the main thread ` +
    `(${(wall / requests).toFixed(3)} ms wall; ${requests} requests, ${concurrency} at a time)`,
);
await closeDbHandle(handle);
