// npm run bench: builds the production app once, starts it with `next start` on the embedded
// default (PGlite, in-memory limiter) and, when DATABASE_URL / REDIS_URL are given, on Postgres and
// Redis too, and measures every hot path against a bare route handler of the same build, interleaved
// (baseline, workload, baseline, …) so each workload is compared with the baselines either side.
// Prints the JSON and a table; writes bench/results/latest.json. docs/benchmarks.md explains it.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { fairnessLine, measureFairness, type FairnessReport } from "./fairness";
import { runSegment, type LoadSpec, type SegmentResult } from "./load";
import { benchPids, gitInfo, machineInfo, OtherLoad } from "./machine";
import type { PreparedCredentials } from "./prepare-db";
import { summariseProfile } from "./profile";
import { measureRoundTrips, type RoundTrips } from "./redis-round-trips";
import { BenchServer, benchOrigin, buildApp, buildIsFresh, freePort, RssMeter } from "./server";
import { adjacentMean, combineRatios, meanMeasurement, ratios, round, type Measurement, type Ratios } from "./stats";
import { baseline, FLOORS, LIMITER_QUERY, WORKLOADS, type Workload } from "./workloads";

const USAGE = `usage: npm run bench -- [options]
  --quick              ~2–3 minutes smoke: 1 s segments (reuses a fresh build)
  --no-build           use the existing .next build as is
  --segment <s>        whole seconds per measured segment (default 3, quick 1)
  --warmup <s>         whole seconds of unmeasured warm-up per workload (default 1; 0 skips it)
  --rounds <n>         baseline/workload alternations per workload (default 1)
  --connections <n>    concurrent connections (default 8)
  --only <ids>         comma-separated workload ids (baseline always runs)
  --embedded-only      ignore DATABASE_URL / REDIS_URL
  --port <n>           first port for the bench servers (default: a free port)
  --out <file>         JSON output (default bench/results/latest.json)
  --profile <id>       CPU-profile the server (node --cpu-prof) under one workload (or baseline) instead of benchmarking
Workloads: ${WORKLOADS.map((w) => w.id).join(", ")}
Floors (always run with the workloads that use them): ${FLOORS.map((w) => w.id).join(", ")}
Scenario: fairness (one key abuses, another key and /api/health are timed; scripts/bench/fairness.ts)`;

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    segment: { type: "string" },
    warmup: { type: "string" },
    rounds: { type: "string" },
    connections: { type: "string" },
    only: { type: "string" },
    "embedded-only": { type: "boolean", default: false },
    port: { type: "string" },
    out: { type: "string" },
    profile: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}

const num = (v: string | undefined, fallback: number, name: string) => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name}: expected a positive number, got ${v}\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
};
const quick = args.quick;
// autocannon ends a run on its 1 s tick, so segments are whole seconds.
const seconds = (v: string | undefined, fallback: number, name: string) => Math.max(1, Math.round(num(v, fallback, name)));
const warmup = args.warmup === "0" ? 0 : seconds(args.warmup, 1, "warmup");
const settings = {
  segmentSeconds: seconds(args.segment, quick ? 1 : 3, "segment"),
  warmupSeconds: warmup,
  rounds: Math.round(num(args.rounds, 1, "rounds")),
  connections: Math.round(num(args.connections, 8, "connections")),
};
const outFile = path.resolve(args.out ?? "bench/results/latest.json");
const FAIRNESS = "fairness";
const only = args.only?.split(",").map((s) => s.trim()).filter(Boolean);
const ALL = [...FLOORS, ...WORKLOADS];
for (const id of [...(only ?? []), ...(args.profile ? [args.profile] : [])]) {
  if (id !== "baseline" && id !== FAIRNESS && !ALL.some((w) => w.id === id)) {
    console.error(`unknown workload ${id}\n\n${USAGE}`);
    process.exit(2);
  }
}
// A workload compared with another (limiter-on with limiter-off) brings that one along, and every
// workload brings its floor (the floors run first, so the table reads floors, then workloads).
const wanted = new Set(only ?? ALL.map((w) => w.id));
for (const w of WORKLOADS) {
  if (!wanted.has(w.id)) continue;
  if (w.target && w.target.against !== "baseline") wanted.add(w.target.against);
  if (w.floor) wanted.add(w.floor);
}
const selected = args.profile ? [] : ALL.filter((w) => wanted.has(w.id));
const wantFairness = !args.profile && (!only || only.includes(FAIRNESS));

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const startedAt = new Date();

// ---------------------------------------------------------------- backends

interface Backend {
  name: string;
  database: "pglite" | "postgres";
  limiterStore: "memory" | "redis";
  env: Record<string, string>;
  redisUrl?: string;
  cleanup: () => Promise<void>;
}

// Generated per run: a fixed literal would be a session-signing secret anyone could read.
const BENCH_AUTH_SECRET = randomBytes(32).toString("base64url");

function scratchPglite(): { env: Record<string, string>; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-"));
  return {
    env: { PGLITE_DATA_DIR: path.join(dir, "pglite"), DATABASE_URL: "" },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A scratch database on the given Postgres server: the bench writes users and tokens, never to yours. */
async function scratchPostgres(url: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const name = `schoolhouse_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: scratch.toString(), PGLITE_DATA_DIR: "memory://" },
    cleanup: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

async function backends(): Promise<Backend[]> {
  const list: Backend[] = [];
  const embedded = scratchPglite();
  list.push({ name: "embedded", database: "pglite", limiterStore: "memory", env: { ...embedded.env, REDIS_URL: "" }, cleanup: embedded.cleanup });
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const redisUrl = process.env.REDIS_URL || undefined;
  if (!args["embedded-only"] && !args.profile && (databaseUrl || redisUrl)) {
    const db = databaseUrl ? await scratchPostgres(databaseUrl) : scratchPglite();
    list.push({
      name: [databaseUrl ? "postgres" : "pglite", redisUrl ? "redis" : "memory"].join("+"),
      database: databaseUrl ? "postgres" : "pglite",
      limiterStore: redisUrl ? "redis" : "memory",
      env: { ...db.env, REDIS_URL: redisUrl ?? "" },
      redisUrl,
      cleanup: db.cleanup,
    });
  }
  return list;
}

function serverEnv(backend: Backend): Record<string, string> {
  return {
    NODE_ENV: "production",
    PLATFORM_DOMAIN: "localhost",
    DEFAULT_SCHOOL: "demo",
    TRUST_PROXY: "",
    AUTH_SECRET: BENCH_AUTH_SECRET,
    SEED_ON_START: "0",
    // The floor routes (app/api/bench/floor-*) write to the database: on only for the bench's own
    // server on its scratch database.
    BENCH_FLOOR_ROUTES: "1",
    // Per-minute counters still run, but far above what a load generator sends: the bench measures
    // the limiter's cost, not its 429s (docs/benchmarks.md).
    RATE_LIMIT_MUTATIONS: "1000000000",
    RATE_LIMIT_QUERIES: "1000000000",
    RATE_LIMIT_WINDOW_SECONDS: "60",
    RATE_LIMIT_STORE: backend.limiterStore,
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    ...backend.env,
  };
}

function prepareDatabase(backend: Backend, keysPerKind: number, refreshTokens: number, origin: string, env: Record<string, string> = {}): PreparedCredentials {
  const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-creds-"));
  const out = path.join(dir, "creds.json");
  try {
    const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
    const r = spawnSync(process.execPath, [tsx, "scripts/bench/prepare-db.ts", out, String(keysPerKind), String(refreshTokens), origin], {
      env: { ...process.env, ...serverEnv(backend), ...env },
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`preparing the ${backend.name} database failed:\n${r.stdout}${r.stderr}`);
    return JSON.parse(readFileSync(out, "utf8")) as PreparedCredentials;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Every PGlite backend starts from a copy of one prepared directory: preparing costs seconds of
// WASM start-up and seeding, copying 40 MB does not.
// The refresh tokens in it are bound to the origin (port) they were prepared for, so a backend on
// another port prepares a new template.
let pgliteTemplate: { dir: string; creds: PreparedCredentials; origin: string } | undefined;

function prepareBackendDatabase(backend: Backend, keysPerKind: number, refreshTokens: number, origin: string): PreparedCredentials {
  if (backend.database !== "pglite") return prepareDatabase(backend, keysPerKind, refreshTokens, origin);
  if (pgliteTemplate?.origin !== origin) {
    removePgliteTemplate();
    const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-template-"));
    const creds = prepareDatabase(backend, keysPerKind, refreshTokens, origin, { PGLITE_DATA_DIR: path.join(dir, "pglite") });
    pgliteTemplate = { dir, creds, origin };
  }
  cpSync(path.join(pgliteTemplate.dir, "pglite"), backend.env.PGLITE_DATA_DIR!, { recursive: true });
  return pgliteTemplate.creds;
}

function removePgliteTemplate(): void {
  if (pgliteTemplate) rmSync(pgliteTemplate.dir, { recursive: true, force: true });
  pgliteTemplate = undefined;
}

// ---------------------------------------------------------------- measuring one backend

interface WorkloadReport {
  id: string;
  title: string;
  endpoint: string;
  /** A floor: the raw driver's cost of a hot path's database work, reference of the floor ratios. */
  isFloor: boolean;
  /** The floor this workload is also reported against; null for the floors themselves. */
  floor: string | null;
  target: number | null;
  targetAgainst: string;
  status: "ok" | "errors" | "unavailable";
  reason?: string;
  note?: string;
  measurement?: Measurement & { requests: number; failures: number; statusCodes: Record<string, number> };
  reference?: Measurement;
  ratios?: Ratios;
  /** Ratios to the floor: (workload ÷ its adjacent baselines) ÷ (floor ÷ its adjacent baselines). */
  floorRatios?: Ratios;
  /** For targets against another workload: this workload's ratios to that one, measured head to head. */
  comparison?: Ratios;
  comparisonMethod?: string;
  targetMet?: boolean | null;
  peakRssMb?: number;
}

interface BackendReport {
  name: string;
  database: string;
  limiterStore: string;
  peakRssMb: number;
  /** segmentRequestsPerSec: each baseline segment in run order, so drift between them can be seen. */
  baseline: Measurement & { segments: number; segmentRequestsPerSec: number[] };
  workloads: WorkloadReport[];
  redisRoundTrips: { enforced: RoundTrips; counted: RoundTrips; goal: number; met: boolean } | { unavailable: string } | null;
  fairness: FairnessReport | null;
}

const meanOf = (list: Measurement[]): Measurement => meanMeasurement(list);
const roundM = (m: Measurement): Measurement => ({ requestsPerSec: round(m.requestsPerSec, 1), p50Ms: round(m.p50Ms), p99Ms: round(m.p99Ms) });
const roundR = (r: Ratios): Ratios => ({ throughput: round(r.throughput), p50: round(r.p50), p99: round(r.p99) });

async function measureBackend(backend: Backend, port: number, otherLoad: OtherLoad): Promise<BackendReport> {
  const tokensNeeded = settings.connections * (settings.rounds + 3) + 16;
  log(`[${backend.name}] preparing a scratch database (migrate, demo seed, bench keys and tokens)…`);
  const creds = prepareBackendDatabase(backend, settings.connections * 2, tokensNeeded, benchOrigin(port));
  log(`[${backend.name}] starting next start on port ${port}…`);
  const server = await BenchServer.start({ port, env: serverEnv(backend) });
  try {
    const ctx = { origin: server.origin, creds, runId: Date.now().toString(36), connections: settings.connections };
    const base = await baseline.prepare(ctx);
    if ("unavailable" in base) throw new Error(`the baseline route is not in this build: ${base.unavailable}`);

    const reports = new Map<string, WorkloadReport>();
    const ready: { workload: Workload; spec: LoadSpec }[] = [];
    for (const w of selected) {
      const report: WorkloadReport = {
        id: w.id,
        title: w.title,
        endpoint: w.endpoint,
        isFloor: w.isFloor === true,
        floor: w.floor ?? null,
        target: w.target ? w.target[backend.database] : null,
        targetAgainst: w.target?.against ?? "baseline",
        status: "unavailable",
      };
      reports.set(w.id, report);
      try {
        const p = await w.prepare(ctx);
        if ("unavailable" in p) {
          report.reason = p.unavailable;
          log(`[${backend.name}] ${w.id}: unavailable: ${p.unavailable}`);
        } else {
          report.note = p.note;
          ready.push({ workload: w, spec: p.spec });
        }
      } catch (err) {
        report.reason = `probe failed: ${(err as Error).message}`;
        log(`[${backend.name}] ${w.id}: unavailable: ${report.reason}`);
      }
    }

    const segment = async (spec: LoadSpec, seconds: number) => {
      const rss = new RssMeter(server.pid);
      rss.start();
      otherLoad.begin();
      const r = await runSegment({ origin: server.origin, spec, connections: settings.connections, durationSec: seconds });
      otherLoad.end();
      return { ...r, peakRssMb: rss.stop() };
    };

    if (settings.warmupSeconds > 0) {
      log(`[${backend.name}] warming up ${ready.length + 1} workloads (${settings.warmupSeconds} s each)…`);
      for (const { spec } of ready) await segment(spec, settings.warmupSeconds);
      // The baseline warms up last, right before the first measured baseline: measured straight
      // after the other warm-ups it ran 8–15% slower than every later baseline segment, which
      // inflated the first workload's ratio (a floor) and so deflated every ratio to that floor.
      await segment(base.spec, settings.warmupSeconds);
    }

    // baseline, w1, baseline, w2, …, baseline: every workload sits between two baselines.
    const baselines: SegmentResult[] = [];
    const runs = new Map<string, { result: SegmentResult & { peakRssMb: number }; before: number }[]>();
    for (let r = 0; r < settings.rounds; r++) {
      if (baselines.length === 0) baselines.push(await segment(base.spec, settings.segmentSeconds));
      for (const { workload, spec } of ready) {
        log(`[${backend.name}] round ${r + 1}/${settings.rounds}: ${workload.id}`);
        const result = await segment(spec, settings.segmentSeconds);
        const list = runs.get(workload.id) ?? [];
        list.push({ result, before: baselines.length - 1 });
        runs.set(workload.id, list);
        baselines.push(await segment(base.spec, settings.segmentSeconds));
      }
    }

    for (const { workload } of ready) {
      const report = reports.get(workload.id)!;
      const list = runs.get(workload.id)!;
      const perRound = list.map(({ result, before }) => {
        const ref = adjacentMean(baselines[before], baselines[before + 1])!;
        return { ref, ratios: ratios(result, ref) };
      });
      const results = list.map((l) => l.result);
      const failures = results.reduce((s, r) => s + r.bad + r.non2xx + r.errors, 0);
      const statusCodes: Record<string, number> = {};
      for (const r of results) for (const [k, v] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
      report.measurement = {
        ...roundM(meanOf(results)),
        requests: results.reduce((s, r) => s + r.requests, 0),
        failures,
        statusCodes,
      };
      report.reference = roundM(meanOf(perRound.map((p) => p.ref)));
      report.ratios = roundR(combineRatios(perRound.map((p) => p.ratios))!);
      report.peakRssMb = round(Math.max(...list.map((l) => l.result.peakRssMb)), 1);
      report.status = failures > 0 ? "errors" : "ok";
      if (failures > 0) {
        const sample = results.find((r) => r.badSample)?.badSample;
        report.reason = `${failures} of ${report.measurement.requests} responses failed (status codes ${JSON.stringify(statusCodes)})${sample ? `; e.g. ${sample}` : ""}`;
      }
    }
    // Ratios to the floor, derived from the two baseline-normalised ratios: each was measured between
    // its own adjacent baselines, so drift in machine load cancels out of both.
    for (const report of reports.values()) {
      const floor = report.floor ? reports.get(report.floor) : undefined;
      if (!report.ratios || !floor?.ratios) continue;
      const r = report.ratios;
      const f = floor.ratios;
      report.floorRatios = roundR({ throughput: r.throughput / f.throughput, p50: r.p50 / f.p50, p99: r.p99 / f.p99 });
    }

    // Targets against another workload (limiter on vs off): a small effect (3%) on a noisy machine,
    // so besides the baseline sequence the pair runs head to head, other, w, other, w, other, and
    // each w segment is compared with the two around it. Falls back to the baseline-normalised
    // ratios when only one round of the pair could run.
    for (const report of reports.values()) {
      if (report.target === null || !report.ratios) continue;
      if (report.targetAgainst === "baseline") {
        report.targetMet = report.ratios.throughput >= report.target;
        continue;
      }
      if (report.targetAgainst === report.floor) {
        report.targetMet = report.floorRatios ? report.floorRatios.throughput >= report.target : null;
        continue;
      }
      const other = reports.get(report.targetAgainst);
      const mine = ready.find((r) => r.workload.id === report.id)!;
      const theirs = ready.find((r) => r.workload.id === report.targetAgainst);
      if (!other?.ratios || !theirs) {
        report.targetMet = null;
        continue;
      }
      log(`[${backend.name}] ${report.id} against ${report.targetAgainst}, head to head`);
      const others: SegmentResult[] = [await segment(theirs.spec, settings.segmentSeconds)];
      const pairs: Ratios[] = [];
      // Two pairs swung from 0.89 to 1.07 between runs of the same build: four halve the variance.
      const pairCount = quick ? 2 : 4;
      for (let i = 0; i < pairCount; i++) {
        const w = await segment(mine.spec, settings.segmentSeconds);
        others.push(await segment(theirs.spec, settings.segmentSeconds));
        pairs.push(ratios(w, adjacentMean(others[i], others[i + 1])!));
      }
      report.comparison = roundR(combineRatios(pairs)!);
      report.comparisonMethod = `head to head: ${pairs.length} × (${report.targetAgainst}, ${report.id}, ${report.targetAgainst})`;
      report.targetMet = report.comparison.throughput >= report.target;
    }

    let redisRoundTrips: BackendReport["redisRoundTrips"] = null;
    if (backend.redisUrl) {
      const limiterReady = ready.some((r) => r.workload.id === "limiter-on");
      if (!limiterReady) {
        redisRoundTrips = { unavailable: reports.get("limiter-on")?.reason ?? "the limiter workloads were not selected" };
      } else {
        const ops = quick ? 20 : 200;
        const op = (key: string) => async () => {
          const res = await fetch(`${server.origin}/admin/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-service-api-key": key },
            body: LIMITER_QUERY,
          });
          await res.arrayBuffer();
        };
        log(`[${backend.name}] counting Redis commands over ${ops} operations per kind…`);
        try {
          const enforced = await measureRoundTrips({ redisUrl: backend.redisUrl, serverPid: server.pid, operations: ops, operation: op(creds.enforcedKeys[0]!) });
          const counted = await measureRoundTrips({ redisUrl: backend.redisUrl, serverPid: server.pid, operations: ops, operation: op(creds.countedKeys[0]!) });
          const r3 = (t: RoundTrips): RoundTrips => ({
            ...t,
            commandsPerOperation: round(t.commandsPerOperation, 2),
            serverWideCommandsPerOperation: round(t.serverWideCommandsPerOperation, 2),
            byCommand: Object.fromEntries(Object.entries(t.byCommand).map(([k, v]) => [k, round(v, 2)])),
          });
          redisRoundTrips = { enforced: r3(enforced), counted: r3(counted), goal: 2, met: enforced.commandsPerOperation <= 2 && counted.commandsPerOperation <= 2 };
        } catch (err) {
          redisRoundTrips = { unavailable: `counting failed: ${(err as Error).message}` };
        }
      }
    }

    // Last: it adds rows and leaves the abuser's budget spent.
    const fairness = wantFairness
      ? await measureFairness({
          origin: server.origin,
          abuserKey: creds.enforcedKeys[1]!,
          unlimitedAbuserKey: creds.countedKeys[0]!,
          victimKey: creds.enforcedKeys[0]!,
          seconds: settings.segmentSeconds * 2,
          runId: ctx.runId,
          log: (line) => log(`[${backend.name}] ${line}`),
        }).catch((err: Error): FairnessReport => ({ status: "unavailable", reason: err.message, targetP99Ms: 250 }))
      : null;

    return {
      name: backend.name,
      database: backend.database,
      limiterStore: backend.limiterStore,
      peakRssMb: round(RssMeter.lifetimePeakMb(server.pid), 1),
      baseline: {
        ...roundM(meanOf(baselines)),
        segments: baselines.length,
        segmentRequestsPerSec: baselines.map((b) => round(b.requestsPerSec, 1)),
      },
      workloads: [...reports.values()],
      redisRoundTrips,
      fairness,
    };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------- profiling one workload

async function profile(id: string, port: number): Promise<void> {
  const [backend] = await backends();
  const dir = path.resolve("bench/results");
  const profDir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-prof-"));
  try {
    const creds = prepareBackendDatabase(backend!, settings.connections * 2, settings.connections * 8 + 16, benchOrigin(port));
    const server = await BenchServer.start({ port, env: serverEnv(backend!), cpuProfileDir: profDir });
    const workload = id === "baseline" ? baseline : ALL.find((w) => w.id === id)!;
    let loadWindowUs: [number, number] | undefined;
    try {
      const ctx = { origin: server.origin, creds, runId: Date.now().toString(36), connections: settings.connections };
      const p = await workload.prepare(ctx);
      if ("unavailable" in p) throw new Error(`${id} is unavailable: ${p.unavailable}`);
      await runSegment({ origin: server.origin, spec: p.spec, connections: settings.connections, durationSec: Math.max(1, settings.warmupSeconds) });
      log(`profiling ${id} for ${settings.segmentSeconds * 3} s…`);
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      const r = await runSegment({ origin: server.origin, spec: p.spec, connections: settings.connections, durationSec: settings.segmentSeconds * 3 });
      loadWindowUs = [fromUs, Number(process.hrtime.bigint() / 1000n)];
      log(`${id}: ${round(r.requestsPerSec, 1)} req/s under the profiler`);
    } finally {
      await server.stop();
    }
    const files = readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile"));
    if (!files.length) throw new Error("the server wrote no .cpuprofile (did it exit gracefully?)");
    mkdirSync(dir, { recursive: true });
    const target = path.join(dir, `${id}.cpuprofile`);
    // The largest profile is the server's; `next start` may leave small ones from helper processes.
    const biggest = files
      .map((f) => path.join(profDir, f))
      .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0]!;
    renameSync(biggest, target);
    const summary = summariseProfile(target, { loadWindowUs });
    writeFileSync(path.join(dir, `${id}.profile.json`), JSON.stringify(summary, null, 2) + "\n");
    console.log(`CPU profile of the server under ${id}: ${path.relative(process.cwd(), target)} (open in Chrome DevTools › Performance)`);
    console.log(`\nself time by group: ${Object.entries(summary.groups).map(([k, v]) => `${k} ${v}%`).join(", ")}`);
    console.log(`\nself time by area (${summary.totalMs} ms sampled, ${summary.window === "load" ? "while the load ran" : "whole process: no samples matched the load's time window"}):`);
    for (const a of summary.byArea) console.log(`  ${String(a.percent).padStart(5)}%  ${a.area}`);
    console.log("\nhottest functions (self time):");
    for (const f of summary.topFunctions) console.log(`  ${String(f.percent).padStart(5)}%  ${f.name}  ${f.where}`);
  } finally {
    rmSync(profDir, { recursive: true, force: true });
    removePgliteTemplate();
    await backend!.cleanup();
  }
}

// ---------------------------------------------------------------- output

const fmt = (n: number | undefined, digits = 2) => (n === undefined || !Number.isFinite(n) ? "–" : n.toFixed(digits));

/** "0.74 (0.31 vs floor-write)"-style target cell pieces. */
function targetText(w: WorkloadReport, md: boolean): string {
  if (w.target === null) return md ? "–" : "";
  const against = w.targetAgainst === "baseline" ? "" : ` vs ${w.targetAgainst}`;
  const met = w.targetMet === true ? " met" : w.targetMet === false ? (md ? " **missed**" : " MISSED") : md ? "" : " ?";
  return `≥ ${w.target}${against}${met}`;
}

/** The throughput ×floor cell; for a head-to-head target, the comparison too. */
function floorCell(w: WorkloadReport): string {
  const parts = [w.isFloor ? "floor" : fmt(w.floorRatios?.throughput)];
  if (w.comparison) parts.push(`(${fmt(w.comparison.throughput)} vs ${w.targetAgainst})`);
  return parts.join(" ");
}

function table(reports: BackendReport[]): string {
  const lines: string[] = [];
  for (const b of reports) {
    lines.push(
      `\n${b.name} (database ${b.database}, limiter store ${b.limiterStore}); baseline ${fmt(b.baseline.requestsPerSec, 0)} req/s, p50 ${fmt(b.baseline.p50Ms)} ms, p99 ${fmt(b.baseline.p99Ms)} ms; server peak RSS ${fmt(b.peakRssMb, 0)} MB`,
      "×base: ratio to the bare route; ×floor: ratio to the workload's floor (floor-write for writes, floor-read for reads). Throughput: higher is better; latency: lower is better.",
    );
    const header = ["workload", "req/s", "×base", "×floor", "target", "p50 ms", "×base", "×floor", "p99 ms", "×base", "×floor", "RSS MB", "status"];
    const rows: string[][] = [];
    for (const w of b.workloads) {
      if (w.status === "unavailable") {
        rows.push([w.id, "", "", "", targetText(w, false), "", "", "", "", "", "", "", `unavailable: ${w.reason}`]);
        continue;
      }
      const m = w.measurement!;
      const r = w.ratios!;
      const f = w.floorRatios;
      rows.push([
        w.isFloor ? `${w.id} (floor)` : w.floor ? `${w.id} [${w.floor.replace("floor-", "")}]` : w.id,
        fmt(m.requestsPerSec, 0),
        fmt(r.throughput),
        floorCell(w),
        targetText(w, false),
        fmt(m.p50Ms),
        fmt(r.p50),
        w.isFloor ? "" : fmt(f?.p50),
        fmt(m.p99Ms),
        fmt(r.p99),
        w.isFloor ? "" : fmt(f?.p99),
        fmt(w.peakRssMb, 0),
        w.status === "ok" ? "ok" : `errors: ${w.reason}`,
      ]);
    }
    const last = header.length - 1;
    const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => !r[last]!.startsWith("unavailable") || i === 0).map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === last ? c : i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
    lines.push(line(header));
    for (const r of rows) lines.push(line(r));
    if (b.fairness) lines.push(fairnessLine(b.fairness));
    const rt = b.redisRoundTrips;
    if (rt && "unavailable" in rt) lines.push(`redis round trips per operation: unavailable: ${rt.unavailable}`);
    else if (rt) {
      lines.push(
        `redis commands per Admin operation (goal ≤ ${rt.goal}): enforced ${rt.enforced.commandsPerOperation} ${JSON.stringify(rt.enforced.byCommand)}, counted only ${rt.counted.commandsPerOperation} ${JSON.stringify(rt.counted.byCommand)} ${rt.met ? "met" : "MISSED"}`,
      );
    }
  }
  return lines.join("\n");
}

/** The same table in markdown, for docs/benchmarks.md. */
function markdown(result: { finishedAt: string; mode: string; machine: ReturnType<typeof machineInfo>; git: ReturnType<typeof gitInfo>; conditions: { otherProcessesCpuPercent: number; underLoad: boolean } }, reports: BackendReport[]): string {
  const m = result.machine;
  const out = [
    `Recorded ${result.finishedAt.replace("T", " ").slice(0, 16)} UTC, ${result.mode} run, commit ${result.git.commit.slice(0, 10)}${result.git.dirty ? " (uncommitted changes)" : ""}; ${m.cores} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Other processes used ${result.conditions.otherProcessesCpuPercent}% of the CPU while measuring${result.conditions.underLoad ? " (taken under load)" : ""}.`,
  ];
  for (const b of reports) {
    out.push(
      "",
      `**${b.name}** (database ${b.database}, limiter store ${b.limiterStore}): baseline ${fmt(b.baseline.requestsPerSec, 0)} req/s, p50 ${fmt(b.baseline.p50Ms)} ms, p99 ${fmt(b.baseline.p99Ms)} ms; server peak RSS ${fmt(b.peakRssMb, 0)} MB.`,
      "",
      "| Workload | Floor | req/s | ×bare | ×floor | Target | p50 ms (×bare, ×floor) | p99 ms (×bare, ×floor) | Peak RSS MB |",
      "|---|---|---:|---:|---:|---|---:|---:|---:|",
    );
    for (const w of b.workloads) {
      const floor = w.isFloor ? "(floor)" : (w.floor ?? "–");
      if (w.status === "unavailable") {
        out.push(`| ${w.id} | ${floor} | – | unavailable: ${w.reason} | – | ${targetText(w, true)} | – | – | – |`);
        continue;
      }
      const r = w.ratios!;
      const f = w.floorRatios;
      const errs = w.status === "errors" ? ` (errors: ${w.measurement!.failures})` : "";
      const lat = (ms: number, base: number, fl: number | undefined) => `${fmt(ms)} (${fmt(base)}${w.isFloor ? "" : `, ${fmt(fl)}`})`;
      out.push(
        `| ${w.id} | ${floor} | ${fmt(w.measurement!.requestsPerSec, 0)} | ${fmt(r.throughput)}${errs} | ${floorCell(w)} | ${targetText(w, true)} | ${lat(w.measurement!.p50Ms, r.p50, f?.p50)} | ${lat(w.measurement!.p99Ms, r.p99, f?.p99)} | ${fmt(w.peakRssMb, 0)} |`,
      );
    }
    if (b.fairness) out.push("", fairnessLine(b.fairness).replace(/^fairness/, "Fairness"));
    const rt = b.redisRoundTrips;
    if (rt && "unavailable" in rt) out.push("", `Redis round trips per operation: unavailable: ${rt.unavailable}`);
    else if (rt) {
      out.push(
        "",
        `Redis commands per Admin operation (goal ≤ ${rt.goal}, ${rt.met ? "met" : "**missed**"}): limits enforced ${rt.enforced.commandsPerOperation} (${JSON.stringify(rt.enforced.byCommand)}), counted only ${rt.counted.commandsPerOperation} (${JSON.stringify(rt.counted.byCommand)}).`,
      );
    }
  }
  return out.join("\n") + "\n";
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  let build = { built: false, seconds: 0 };
  if (args["no-build"]) {
    if (!existsSync(".next/BUILD_ID")) throw new Error("--no-build: there is no production build in .next (run next build)");
    log("using the existing build in .next (--no-build)");
  } else if (quick && buildIsFresh()) {
    log("reusing the production build in .next (newer than every source file)");
  } else {
    build = { built: true, seconds: round(buildApp(log), 1) };
    log(`built in ${build.seconds} s`);
  }
  let port = args.port ? Number(args.port) : await freePort();
  if (args.profile) return profile(args.profile, port);

  const loadAtStart = os.loadavg();
  const otherLoad = new OtherLoad(benchPids());
  const list = await backends();
  const reports: BackendReport[] = [];
  try {
    for (const backend of list) {
      reports.push(await measureBackend(backend, port, otherLoad));
      port = args.port ? port + 1 : await freePort();
    }
  } finally {
    removePgliteTemplate();
    for (const b of list) await b.cleanup().catch((err) => log(`cleanup of ${b.name} failed: ${(err as Error).message}`));
  }
  const finishedAt = new Date();
  const otherCpu = otherLoad.percent();
  const result = {
    schema: "schoolhouse-bench/1",
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    wallSeconds: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1),
    mode: quick ? "quick" : "full",
    settings,
    build,
    machine: machineInfo(),
    git: gitInfo(),
    conditions: {
      otherProcessesCpuPercent: otherCpu,
      underLoad: otherCpu >= 10,
      loadAverageAtStart: loadAtStart.map((n) => round(n, 2)),
      loadAverageAtEnd: os.loadavg().map((n) => round(n, 2)),
    },
    backends: reports,
    summary: {
      missedTargets: [
        ...reports.flatMap((b) => b.workloads.filter((w) => w.targetMet === false).map((w) => `${b.name}/${w.id}`)),
        ...reports.filter((b) => b.fairness?.targetMet === false).map((b) => `${b.name}/${FAIRNESS}`),
      ],
      unavailable: reports.flatMap((b) => b.workloads.filter((w) => w.status === "unavailable").map((w) => `${b.name}/${w.id}: ${w.reason}`)),
      errors: reports.flatMap((b) => b.workloads.filter((w) => w.status === "errors").map((w) => `${b.name}/${w.id}`)),
    },
  };
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, JSON.stringify(result, null, 2) + "\n");
  writeFileSync(outFile.replace(/\.json$/, "") + ".md", markdown(result, reports));
  console.log(JSON.stringify(result, null, 2));
  console.log(table(reports));
  console.log(
    `\n${result.mode} run, ${result.wallSeconds} s; other processes used ${otherCpu}% of the machine's CPU while measuring${result.conditions.underLoad ? " (numbers taken under load)" : ""}; written to ${path.relative(process.cwd(), outFile)} (and .md)`,
  );
}

main().catch((err) => {
  console.error(`bench: ${(err as Error).message}`);
  process.exit(1);
});
