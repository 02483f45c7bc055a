// npm run bench's command line: the options, their defaults and which workloads they select.
import path from "node:path";
import { parseArgs } from "node:util";
import { FLOORS, proxiedBaseline, WORKLOADS, type Workload } from "./workloads";

/** Members of the member-search dataset in a --quick run: enough to page through, seconds to build. */
export const QUICK_MEMBERS = 2_000;

export const USAGE = `usage: npm run bench -- [options]
  --quick              ~2–3 minutes smoke: 1 s segments (reuses a fresh build)
  --no-build           use the existing .next build as is
  --segment <s>        whole seconds per measured segment (default 3, quick 1)
  --warmup <s>         whole seconds of unmeasured warm-up per workload (default 1; 0 skips it)
  --rounds <n>         baseline/workload alternations per workload (default 1)
  --connections <n>    concurrent connections (default 8)
  --only <ids>         comma-separated workload ids (baseline always runs)
  --embedded-only      ignore DATABASE_URL / REDIS_URL
  --port <n>           first port for the bench servers (default: a free port)
  --members <n>        members in the member-search dataset (default 200000, --quick 2000; 2 subscriptions each)
  --out <file>         JSON output (default bench/results/latest.json)
  --large <scale>      also run the Postgres backend on the large-school dataset (bench/large-dataset.ts;
                       1 = 200,000 members, 400,000 subscriptions …) and report large/small ratios
  --renewals <n>       due subscriptions of the renewals scenario's larger run (default 100000: issue 26's check, 10,000 then
                       100,000; --quick 50; the smaller run is always n/10)
  --profile <id>       CPU-profile the server (node --cpu-prof) under one workload (or baseline) instead of benchmarking
Workloads: ${WORKLOADS.map((w) => w.id).join(", ")}
Floors (always run with the workloads that use them): ${FLOORS.map((w) => w.id).join(", ")}
Scenarios: fairness (one key abuses, another key and /api/health are timed; bench/fairness.ts),
  peer (ours vs node-oidc-provider: refresh, introspect, bare route, alternating; bench/peer-measure.ts),
  renewals (a renewal run over n/10 then n due subscriptions, its own process and database; bench/renewals-measure.ts)`;

export const FAIRNESS = "fairness";
export const PEER = "peer";
export const RENEWALS = "renewals";
/**
 * A full run's default: issue 26's own sizes, 10,000 then 100,000 due, so one full run checks its
 * clause (docs/benchmarks.md, "Renewals": about 2–3 minutes per backend on a quiet machine).
 */
export const FULL_RENEWALS = 100_000;
/** Due subscriptions of the renewals scenario's larger run in a --quick run (seconds, not minutes). */
export const QUICK_RENEWALS = 50;

export interface Settings {
  segmentSeconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
}

export interface BenchOptions {
  quick: boolean;
  noBuild: boolean;
  embeddedOnly: boolean;
  /** First port for the bench servers; undefined: a free port each time. */
  port?: number;
  /** A workload id to CPU-profile instead of benchmarking. */
  profile?: string;
  settings: Settings;
  outFile: string;
  /** The workloads to measure, floors first. */
  selected: Workload[];
  wantFairness: boolean;
  /** Ours against node-oidc-provider (bench/peer-measure.ts). */
  wantPeer: boolean;
  /** The renewals scenario's larger run, or 0: not run (bench/renewals-measure.ts). */
  renewals: number;
  /** Members of the member-search dataset (bench/member-dataset.ts), prepared only when members-search runs. */
  members: number;
  /** Scale of the large-school dataset for the extra Postgres backend; undefined: not run. */
  largeScale?: number;
}

/** Parses the arguments; prints the usage and exits on --help or a bad value. */
export function benchOptions(argv: string[]): BenchOptions {
  const { values: args } = parseArgs({
    args: argv,
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
      members: { type: "string" },
      out: { type: "string" },
      profile: { type: "string" },
      large: { type: "string" },
      renewals: { type: "string" },
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
  const only = args.only?.split(",").map((s) => s.trim()).filter(Boolean);
  const ALL = [...FLOORS, proxiedBaseline, ...WORKLOADS];
  for (const id of [...(only ?? []), ...(args.profile ? [args.profile] : [])]) {
    if (id !== "baseline" && id !== FAIRNESS && id !== PEER && id !== RENEWALS && !ALL.some((w) => w.id === id)) {
      console.error(`unknown workload ${id}\n\n${USAGE}`);
      process.exit(2);
    }
  }
  // A workload compared with another (limiter-on with limiter-off) brings that one along, and every
  // workload brings its floor (the floors run first, so the table reads floors, then workloads).
  const wanted = new Set(only ?? ALL.map((w) => w.id));
  // The renewals scenario is reported against floor-write.
  if (only?.includes(RENEWALS)) wanted.add("floor-write");
  for (const w of WORKLOADS) {
    if (!wanted.has(w.id)) continue;
    if (w.target && w.target.against !== "baseline") wanted.add(w.target.against);
    if (w.floor) wanted.add(w.floor);
  }
  const selected = args.profile ? [] : ALL.filter((w) => wanted.has(w.id));
  const wantFairness = !args.profile && (!only || only.includes(FAIRNESS));
  const wantPeer = !args.profile && (!only || only.includes(PEER));
  const wantRenewals = !args.profile && (!only || only.includes(RENEWALS));
  const largeScale = args.large === undefined ? undefined : num(args.large, 1, "large");
  if (largeScale !== undefined && !process.env.DATABASE_URL) {
    console.error(`--large needs DATABASE_URL (the dataset is generated on Postgres)\n\n${USAGE}`);
    process.exit(2);
  }
  return {
    quick,
    noBuild: args["no-build"],
    embeddedOnly: args["embedded-only"],
    port: args.port ? Number(args.port) : undefined,
    profile: args.profile,
    settings,
    outFile,
    selected,
    wantFairness,
    wantPeer,
    renewals: wantRenewals ? Math.round(num(args.renewals, quick ? QUICK_RENEWALS : FULL_RENEWALS, "renewals")) : 0,
    // A quick run (and the suite's smoke run) must not spend minutes generating the full dataset.
    members: Math.round(num(args.members, quick ? QUICK_MEMBERS : 200_000, "members")),
    largeScale,
  };
}
