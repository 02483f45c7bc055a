// npm run bench:rate-limit: the rate limiter's cost, isolated on a trivial GraphQL endpoint (the
// whole-app benchmark, `npm run bench`, measures it on the real Admin API).
// - Throughput with the in-memory store against the same endpoint with limits off (goal: ≤ 3% loss).
//   Runs alternate (off, memory, off, memory, …) to cancel drift; the best run of each is compared
//   (on a shared machine other load only ever lowers throughput). The server's CPU time per request
//   is reported too: it is what the limiter adds, and it hardly moves with the machine's load.
// - With REDIS_URL (default redis://127.0.0.1:6379 if reachable): Redis round trips per operation
//   (goal: ≤ 2) and throughput.
// Options: --duration <s> (5), --rounds <n> (3), --connections <n> (10).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

// The part of autocannon's API used here (the package ships no types).
type Autocannon = (options: {
  url: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
}) => Promise<{ requests: { average: number }; latency: { p99: number }; non2xx: number; errors: number }>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const duration = arg("duration", 5);
const rounds = arg("rounds", 3);
const connections = arg("connections", 10);
const here = import.meta.dirname;

interface Target {
  url: string;
  child: ChildProcess;
}

async function start(variant: string): Promise<Target> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "rate-limit-server.ts"), variant], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
  let out = "";
  child.stdout!.setEncoding("utf8");
  for await (const chunk of child.stdout!) {
    out += chunk;
    const m = /ready (\d+)/.exec(out);
    if (m) return { url: `http://127.0.0.1:${m[1]}`, child };
  }
  throw new Error(`${variant} server did not start`);
}

async function stop(t: Target) {
  t.child.kill();
  await once(t.child, "exit");
}

interface Stats {
  operations: number;
  roundTrips: number;
  cpuMicros: number;
}
const stats = async (url: string) => (await (await fetch(`${url}/stats`)).json()) as Stats;

async function load(url: string, seconds = duration) {
  const before = await stats(url);
  const r = await autocannon({
    url: `${url}/graphql`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ hello }" }),
    connections,
    duration: seconds,
  });
  if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx responses, ${r.errors} errors`);
  const after = await stats(url);
  const ops = after.operations - before.operations;
  return { rps: r.requests.average, p99: r.latency.p99, cpuPerOp: (after.cpuMicros - before.cpuMicros) / ops, tripsPerOp: (after.roundTrips - before.roundTrips) / ops };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function redisReachable(): Promise<boolean> {
  const { Redis } = await import("ioredis");
  const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function main() {
  console.log(`rate-limit bench: ${rounds} rounds × ${duration} s, ${connections} connections, query { hello }\n`);
  const off = await start("off");
  const memory = await start("memory");
  await load(off.url, 1);
  await load(memory.url, 1); // warm-up
  const runs: Record<"off" | "memory", Awaited<ReturnType<typeof load>>[]> = { off: [], memory: [] };
  for (let i = 0; i < rounds; i++) {
    runs.off.push(await load(off.url));
    runs.memory.push(await load(memory.url));
    const [o, m] = [runs.off.at(-1)!, runs.memory.at(-1)!];
    console.log(
      `round ${i + 1}: off ${o.rps.toFixed(0)} req/s (${o.cpuPerOp.toFixed(0)} µs CPU/req), memory ${m.rps.toFixed(0)} req/s (${m.cpuPerOp.toFixed(0)} µs CPU/req)`,
    );
  }
  await Promise.all([stop(off), stop(memory)]);
  const best = (xs: { rps: number }[]) => Math.max(...xs.map((x) => x.rps));
  const cpu = (xs: { cpuPerOp: number }[]) => median(xs.map((x) => x.cpuPerOp));
  const loss = ((best(runs.off) - best(runs.memory)) / best(runs.off)) * 100;
  const cpuAdded = ((cpu(runs.memory) - cpu(runs.off)) / cpu(runs.off)) * 100;
  console.log(`\nlimits off:        ${best(runs.off).toFixed(0)} req/s (best), ${cpu(runs.off).toFixed(0)} µs CPU/request (median)`);
  console.log(`in-memory limiter: ${best(runs.memory).toFixed(0)} req/s (best), ${cpu(runs.memory).toFixed(0)} µs CPU/request (median)`);
  console.log(`throughput loss:   ${loss.toFixed(2)}% (goal ≤ 3%: ${loss <= 3 ? "met" : "NOT met"})`);
  console.log(`CPU per request:   ${cpuAdded >= 0 ? "+" : ""}${cpuAdded.toFixed(2)}%`);
  console.log(`load average:      ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs (numbers are noisy when it exceeds the CPU count)`);

  if (await redisReachable()) {
    const redis = await start("redis");
    await load(redis.url, 1);
    const r = await load(redis.url);
    await stop(redis);
    console.log(`\nredis limiter:     ${r.rps.toFixed(0)} req/s, p99 ${r.p99} ms, ${r.cpuPerOp.toFixed(0)} µs CPU/request`);
    console.log(`redis round trips: ${r.tripsPerOp.toFixed(2)} per operation (goal ≤ 2: ${r.tripsPerOp <= 2 ? "met" : "NOT met"})`);
  } else {
    console.log("\nredis: not reachable (set REDIS_URL) — round trips not measured");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
