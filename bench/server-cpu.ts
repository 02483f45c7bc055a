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
//     [--api-keys k1,k2,…] <path> [<path>…]
//
// The path `mcp-search` is the bench's mcp-search-catalog request (POST /mcp, tools/call
// search_catalog {query:"sql"}, as bench/workloads.ts sends it) with `--bearer` (an Admin API key).
// A path `graphql:<document>` is an Admin API request as the bench sends it: POST /admin/graphql
// with {"query": <document>}, one of `--api-keys` (comma-separated) per connection.
import { Agent, request as httpRequest } from "node:http";
import { parseArgs } from "node:util";
import { statCpuMs, treeCpuMs } from "./proc-cpu";

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

/** Method, path, headers and body of one request for a path argument, sent on `connection`. */
function requestFor(path: string, connection: number): { method: string; path: string; headers: Record<string, string>; body?: string } {
  if (path.startsWith(GRAPHQL)) {
    if (!apiKeys.length) throw new Error(`${path}: needs --api-keys`);
    const body = JSON.stringify({ query: path.slice(GRAPHQL.length) });
    const key = apiKeys[connection % apiKeys.length]!;
    return { method: "POST", path: "/admin/graphql", headers: { accept: "application/json", "content-type": "application/json", "x-service-api-key": key }, body };
  }
  if (path !== "mcp-search") return { method: "GET", path, headers: { accept: opts.accept! } };
  if (!opts.bearer) throw new Error("mcp-search needs --bearer <Admin API key>");
  const body = JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "tools/call", params: { name: "search_catalog", arguments: { query: "sql" } } });
  return {
    method: "POST",
    path: "/mcp",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
      authorization: `Bearer ${opts.bearer}`,
      "content-length": String(Buffer.byteLength(body)),
    },
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

const results = new Map<string, { tree: number[]; main: number[] }>(paths.map((p) => [p, { tree: [], main: [] }]));
for (const p of paths) await drive(p, Math.min(500, requests)); // warm-up: JIT, caches, route code loaded
for (let r = 0; r < rounds; r++) {
  for (const p of paths) {
    const before = cpuMs();
    await drive(p, requests);
    const after = cpuMs();
    results.get(p)!.tree.push((after.tree - before.tree) / requests);
    results.get(p)!.main.push((after.main - before.main) / requests);
  }
}
agent.destroy();
const first = results.get(paths[0]!)!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (xs: number[]) => `${mean(xs).toFixed(3)} (${xs.map((x) => x.toFixed(2)).join(" ")})`;
console.log(`ms CPU per request, mean (rounds); ×first: first's CPU / this path's (above 1: cheaper than ${paths[0]})`);
for (const [p, r] of results) {
  console.log(
    `${p.padEnd(36)} main thread ${fmt(r.main)} ×${(mean(first.main) / mean(r.main)).toFixed(2)}   ` +
      `process tree ${fmt(r.tree)} ×${(mean(first.tree) / mean(r.tree)).toFixed(2)}`,
  );
}
