// Server CPU time per request over HTTP, for routes whose cost is mostly Next.js's own handling
// (the proxy, route resolution, the response pipe), which cpu-per-request.ts, in process without
// Next, cannot see. Drives a running server (`next start`, started like the bench's) with a fixed
// number of keep-alive connections and reads the user+system CPU time of the server's process
// tree from /proc before and after each round. Paths alternate round by round, so slow drift of
// the machine hits each alike. CPU time does not depend on what else the machine runs, unlike
// throughput (docs/benchmarks.md, "Profiling a miss").
//
//   npx tsx bench/server-cpu.ts --pid <server pid> --origin http://localhost:3140 \
//     [--requests 2000] [--rounds 3] [--connections 4] [--accept text/markdown] [--bearer key]
//     [--api-keys k1,k2,…] [--database-url url [--settle-outbox]] <path> [<path>…]
//
// The path `mcp-search` is the bench's mcp-search-catalog request (POST /mcp, tools/call
// search_catalog {query:"sql"}, as bench/workloads.ts sends it) with `--bearer` (an Admin API key).
// A path `graphql:<document>` is an Admin API request as the bench sends it: POST /admin/graphql
// with {"query": <document>}, one of `--api-keys` (comma-separated) per connection. `create` and
// `mcp-create` are the bench's create-subscription and mcp-create-subscription requests (a new
// email each), `post:<path>` a POST without a body (the floors: post:/api/bench/floor-write),
// `form:<path>?<query>` a POST of the query as an application/x-www-form-urlencoded body (the
// bench's introspection: form:/api/oauth/introspect?token=…&client_id=demo-public-app).
//
// --database-url: also the CPU of the database's Postgres backends per request (when Postgres runs
// on this machine). --settle-outbox (with it): each round waits until the mail outbox has nothing
// pending before it reads the CPU, so the server's mail worker's work for the round's requests (a
// new member's two mails) is counted with them, not with the next round (slow: the worker sends
// one mail at a time).
import { Agent, request as httpRequest } from "node:http";
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { cpuBetween, pidsCpuMs, PostgresBackends, statCpuMs, treeCpuMs } from "./proc-cpu";

const { values: opts, positionals: paths } = parseArgs({
  allowPositionals: true,
  options: {
    pid: { type: "string" },
    origin: { type: "string", default: "http://localhost:3000" },
    requests: { type: "string", default: "2000" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "4" },
    accept: { type: "string", default: "*/*" },
    bearer: { type: "string" },
    "api-keys": { type: "string" },
    "database-url": { type: "string" },
    "settle-outbox": { type: "boolean" },
  },
});
if (!opts.pid || paths.length === 0) {
  console.error("usage: server-cpu.ts --pid <pid> [--origin url] [--requests n] [--rounds n] [--connections n] [--bearer key] [--api-keys k1,k2] <path>…");
  process.exit(2);
}
const rootPid = Number(opts.pid);
const requests = Number(opts.requests);
const connections = Number(opts.connections);
const rounds = Number(opts.rounds);
const origin = new URL(opts.origin!);

/**
 * CPU of the whole process tree (V8's helper threads included) and of the server's main thread
 * alone: JavaScript runs on that one thread, so it is what bounds throughput.
 */
function cpuMs(): { tree: number; main: number } {
  const tree = treeCpuMs(rootPid);
  return { tree, main: statCpuMs(`/proc/${rootPid}/task/${rootPid}/stat`) };
}

const agent = new Agent({ keepAlive: true, maxSockets: connections });

let rpcId = 0;
const apiKeys = opts["api-keys"]?.split(",").filter(Boolean) ?? [];
const GRAPHQL = "graphql:";
const POST = "post:";
const FORM = "form:";
const MONTHLY_PLAN_ID = "5c400000-0000-4000-8000-000300000001";
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

const keyFor = (path: string, connection: number): string => {
  if (!apiKeys.length) throw new Error(`${path}: needs --api-keys`);
  return apiKeys[connection % apiKeys.length]!;
};

/** Method, path, headers and body of one request for a path argument, sent on `connection`. */
function requestFor(path: string, connection: number): { method: string; path: string; headers: Record<string, string>; body?: string } {
  if (path.startsWith(GRAPHQL)) {
    if (!apiKeys.length) throw new Error(`${path}: needs --api-keys`);
    const body = JSON.stringify({ query: path.slice(GRAPHQL.length) });
    const key = apiKeys[connection % apiKeys.length]!;
    return { method: "POST", path: "/admin/graphql", headers: { accept: "application/json", "content-type": "application/json", "x-service-api-key": key }, body };
  }
  if (path.startsWith(POST)) return { method: "POST", path: path.slice(POST.length), headers: { accept: opts.accept! }, body: "" };
  if (path.startsWith(FORM)) {
    const rest = path.slice(FORM.length);
    const q = rest.indexOf("?");
    const [target, body] = q < 0 ? [rest, ""] : [rest.slice(0, q), rest.slice(q + 1)];
    return { method: "POST", path: target, headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, body };
  }
  if (path === "create") {
    const email = `cpu-${randomUUID()}@bench.schoolhouse.test`;
    const query = `mutation BenchCreate { createSubscription(input: { email: ${JSON.stringify(email)}, name: "Bench User", planId: "${MONTHLY_PLAN_ID}" }) { errors subscription { id state } } }`;
    return { method: "POST", path: "/admin/graphql", headers: { accept: "application/json", "content-type": "application/json", "x-service-api-key": keyFor(path, connection) }, body: JSON.stringify({ query }) };
  }
  if (path !== "mcp-search" && path !== "mcp-create") return { method: "GET", path, headers: { accept: opts.accept! } };
  const bearer = path === "mcp-create" ? keyFor(path, connection) : opts.bearer;
  if (!bearer) throw new Error("mcp-search needs --bearer <Admin API key>");
  const params =
    path === "mcp-search"
      ? { name: "search_catalog", arguments: { query: "sql" } }
      : { name: "create_subscription", arguments: { email: `cpu-mcp-${randomUUID()}@bench.schoolhouse.test`, name: "Bench MCP User", planId: MONTHLY_PLAN_ID } };
  const body = JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params });
  return {
    method: "POST",
    path: "/mcp",
    headers: { ...MCP_HEADERS, authorization: `Bearer ${bearer}`, "content-length": String(Buffer.byteLength(body)) },
    body,
  };
}

function send(path: string, connection: number): Promise<number> {
  const r = requestFor(path, connection);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: origin.hostname, port: origin.port, path: r.path, method: r.method, agent, headers: r.headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(r.body);
  });
}

async function drive(path: string, count: number): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: connections }, async (_, connection) => {
      while (left-- > 0) {
        const status = await send(path, connection);
        if (status !== 200) throw new Error(`${path}: ${status}`);
      }
    }),
  );
}

const backends = opts["database-url"] ? await PostgresBackends.open(opts["database-url"]) : null;
const outbox = opts["database-url"] && opts["settle-outbox"] ? new pg.Client({ connectionString: opts["database-url"], application_name: "bench-cpu-probe" }) : null;
await outbox?.connect();
/** Until the server's mail worker has sent every mail of the round (a minute at most). */
async function outboxSettled(): Promise<void> {
  if (!outbox) return;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { rows } = await outbox.query<{ n: number }>(`SELECT count(*)::int AS n FROM "MailMessage" WHERE "status" = 'pending'`);
    if (rows[0]!.n === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the mail outbox did not drain within a minute");
}
const dbPids = async () => (backends ? pidsCpuMs(await backends.pids("bench-cpu-probe", true)) : new Map<number, number>());

const results = new Map<string, { tree: number[]; main: number[]; db: number[] }>(paths.map((p) => [p, { tree: [], main: [], db: [] }]));
for (const p of paths) await drive(p, Math.min(500, requests)); // warm-up: JIT, caches, route code loaded
await outboxSettled();
for (let r = 0; r < rounds; r++) {
  for (const p of paths) {
    const before = cpuMs();
    const dbBefore = await dbPids();
    await drive(p, requests);
    await outboxSettled();
    const after = cpuMs();
    const dbAfter = await dbPids();
    results.get(p)!.tree.push((after.tree - before.tree) / requests);
    results.get(p)!.main.push((after.main - before.main) / requests);
    results.get(p)!.db.push(cpuBetween(dbBefore, dbAfter) / requests);
  }
}
agent.destroy();
await outbox?.end();
await backends?.close();
const first = results.get(paths[0]!)!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (xs: number[]) => `${mean(xs).toFixed(3)} (${xs.map((x) => x.toFixed(2)).join(" ")})`;
console.log(`ms CPU per request, mean (rounds); ×first: first's CPU / this path's (above 1: cheaper than ${paths[0]})`);
for (const [p, r] of results) {
  console.log(
    `${p.padEnd(36)} main thread ${fmt(r.main)} ×${(mean(first.main) / mean(r.main)).toFixed(2)}   ` +
      `process tree ${fmt(r.tree)} ×${(mean(first.tree) / mean(r.tree)).toFixed(2)}` +
      (backends ? `   Postgres ${fmt(r.db)}; tree + Postgres ×${((mean(first.tree) + mean(first.db)) / (mean(r.tree) + mean(r.db))).toFixed(2)}` : ""),
  );
}
