// The bench's scratch databases: an embedded PGlite directory, and a Postgres database of its own
// when DATABASE_URL is given, migrated, seeded and given bench keys and refresh tokens
// (prepare-db.ts), so the bench never writes to your data.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { PreparedCredentials } from "./prepare-db";
import { mailSinkUrl } from "./mail-sink";

export interface Backend {
  name: string;
  database: "pglite" | "postgres";
  limiterStore: "memory" | "redis";
  env: Record<string, string>;
  redisUrl?: string;
  /** The large-school dataset's scale (bench/large-dataset.ts) on top of the demo seed; none: the demo seed only. */
  largeScale?: number;
  /** Runs only the member search (and its floor) on the member dataset (bench/member-dataset.ts). */
  memberDataset?: boolean;
  cleanup: () => Promise<void>;
}

/** Name prefix of the backend that runs on the large-school dataset. */
export const LARGE_PREFIX = "large-";

/**
 * How long a child process of the bench (a database's preparation, a renewals run) may take before
 * it is killed and the bench reports its output: the large dataset and the issue's 100,000
 * renewals take minutes, a stuck child would otherwise hold the bench forever.
 */
export const CHILD_DEADLINE_MS = 30 * 60_000;
/** Name prefix of the backend that runs the member search on its own dataset. */
export const MEMBERS_PREFIX = "members-";

// Generated per run: a fixed literal would be a session-signing secret anyone could read.
const BENCH_AUTH_SECRET = randomBytes(32).toString("base64url");

export function scratchPglite(): { env: Record<string, string>; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-"));
  return {
    env: { PGLITE_DATA_DIR: path.join(dir, "pglite"), DATABASE_URL: "" },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A scratch database on the given Postgres server: the bench writes users and tokens, never to yours. */
export async function scratchPostgres(url: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
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

/** The embedded backend, and Postgres and/or Redis when DATABASE_URL / REDIS_URL are set. */
export async function backends(opts: { embeddedOnly: boolean; profiling: boolean; largeScale?: number; memberSearch?: boolean }): Promise<Backend[]> {
  const list: Backend[] = [];
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const redisUrl = process.env.REDIS_URL || undefined;
  // Each on a scratch database of its own; the member dataset's backend follows the one it mirrors.
  const add = async (mirror: { name: string; database: "pglite" | "postgres"; redisUrl?: string }) => {
    for (const memberDataset of opts.memberSearch ? [false, true] : [false]) {
      const db = mirror.database === "postgres" ? await scratchPostgres(databaseUrl!) : scratchPglite();
      list.push({
        name: (memberDataset ? MEMBERS_PREFIX : "") + mirror.name,
        database: mirror.database,
        limiterStore: mirror.redisUrl ? "redis" : "memory",
        env: { ...db.env, REDIS_URL: mirror.redisUrl ?? "" },
        redisUrl: mirror.redisUrl,
        memberDataset,
        cleanup: db.cleanup,
      });
    }
  };
  await add({ name: "embedded", database: "pglite" });
  if (!opts.embeddedOnly && !opts.profiling && (databaseUrl || redisUrl)) {
    await add({ name: [databaseUrl ? "postgres" : "pglite", redisUrl ? "redis" : "memory"].join("+"), database: databaseUrl ? "postgres" : "pglite", redisUrl });
  }
  // The same Postgres backend again, on the large-school dataset: each workload's large/small
  // ratio is read against the one above (docs/benchmarks.md, "Flat cost as data grows").
  if (!opts.embeddedOnly && !opts.profiling && databaseUrl && opts.largeScale) {
    const db = await scratchPostgres(databaseUrl);
    list.push({
      name: [LARGE_PREFIX + "postgres", redisUrl ? "redis" : "memory"].join("+"),
      database: "postgres",
      limiterStore: redisUrl ? "redis" : "memory",
      env: { ...db.env, REDIS_URL: redisUrl ?? "" },
      redisUrl,
      largeScale: opts.largeScale,
      cleanup: db.cleanup,
    });
  }
  return list;
}

export function serverEnv(backend: Backend): Record<string, string> {
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
    // Mail goes to the bench's SMTP sink (bench/mail-sink.ts), on both backends alike.
    MAIL_URL: mailSinkUrl(),
    ...backend.env,
  };
}

// Authorization codes per kind (with and without openid) when the caller does not count them: single-use,
// one per token-code request, so a run's number follows its length (bench/alternating.ts, codesNeeded:
// 20,000 for a full run's defaults; preparing them costs seconds).
const DEFAULT_CODES_PER_KIND = 20_000;

export function prepareDatabase(
  backend: Backend,
  keysPerKind: number,
  refreshTokens: number,
  origin: string,
  env: Record<string, string> = {},
  codes = DEFAULT_CODES_PER_KIND,
  /** Members of the member-search dataset (bench/member-dataset.ts); 0: none. */
  members = 0,
): PreparedCredentials {
  const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-creds-"));
  const out = path.join(dir, "creds.json");
  try {
    const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
    const r = spawnSync(process.execPath, [tsx, "bench/prepare-db.ts", out, String(keysPerKind), String(refreshTokens), origin, String(codes), String(members)], {
      env: { ...process.env, ...serverEnv(backend), ...(backend.largeScale ? { BENCH_LARGE_SCALE: String(backend.largeScale) } : {}), ...env },
      encoding: "utf8",
      timeout: CHILD_DEADLINE_MS,
      killSignal: "SIGKILL",
    });
    if (r.status !== 0) throw new Error(`preparing the ${backend.name} database failed${r.error ? ` (${r.error.message})` : ""}:\n${r.stdout}${r.stderr}`);
    return JSON.parse(readFileSync(out, "utf8")) as PreparedCredentials;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Every PGlite backend starts from a copy of one prepared directory: preparing costs seconds of
// WASM start-up and seeding, copying 40 MB does not.
// The refresh tokens in it are bound to the origin (port) they were prepared for, so a backend on
// another port prepares a new template.
let pgliteTemplate: { dir: string; creds: PreparedCredentials; origin: string; members: number } | undefined;

export function prepareBackendDatabase(backend: Backend, keysPerKind: number, refreshTokens: number, origin: string, codes = DEFAULT_CODES_PER_KIND, members = 0): PreparedCredentials {
  if (backend.database !== "pglite") return prepareDatabase(backend, keysPerKind, refreshTokens, origin, {}, codes, members);
  if (pgliteTemplate?.origin !== origin || pgliteTemplate.members !== members) {
    removePgliteTemplate();
    const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-template-"));
    const creds = prepareDatabase(backend, keysPerKind, refreshTokens, origin, { PGLITE_DATA_DIR: path.join(dir, "pglite") }, codes, members);
    pgliteTemplate = { dir, creds, origin, members };
  }
  cpSync(path.join(pgliteTemplate.dir, "pglite"), backend.env.PGLITE_DATA_DIR!, { recursive: true });
  return pgliteTemplate.creds;
}

export function removePgliteTemplate(): void {
  if (pgliteTemplate) rmSync(pgliteTemplate.dir, { recursive: true, force: true });
  pgliteTemplate = undefined;
}