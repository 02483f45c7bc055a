import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/** The connection a Prisma client and the migrator share. */
export type Driver = { kind: "pg"; pool: pg.Pool; url: string } | { kind: "pglite"; pglite: PGlite; dataDir: string };

/** Minimal SQL surface used by the migrator and by tooling that must run multi-statement scripts. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a script that may hold several statements. */
  exec(sql: string): Promise<void>;
}

export function createPgDriver(url: string, options: { max?: number } = {}): Driver {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    // No JIT: every statement here is an indexed OLTP read or write, done in well under a
    // millisecond, and compiling one costs ~10 ms. Postgres compiles when the planner's cost passes
    // jit_above_cost, which statistics older than a table's growth (a renewal run before
    // autovacuum's next ANALYZE) make it do: 15 ms of a 35 ms statement (docs/decisions.md).
    options: "-c jit=off",
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  return { kind: "pg", pool, url };
}

export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
  constructor(
    readonly dir: string,
    readonly owner: number,
  ) {
    super(`the embedded database ${dir} is in use by process ${owner}; stop it first (PGlite allows one process)`);
  }
}

/** A process as /proc shows it: its state letter and its start time (clock ticks after boot). */
function procStat(pid: number): { state: string; start: string } | null | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (err) {
    // No such process; or no /proc at all (macOS), where only kill(pid, 0) can tell.
    return (err as NodeJS.ErrnoException).code === "ENOENT" && existsSync("/proc/self/stat") ? null : undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: fields count from its end.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0]!, start: fields[19]! };
}

/** What the lock file records: the owner's pid and, where /proc exists, its start time. */
function lockRecord(pid: number): string {
  const start = procStat(pid)?.start;
  return start ? `${pid} ${start}` : String(pid);
}

/**
 * Whether the process a lock names still holds it. Not when it is gone, a zombie (killed, not yet
 * reaped by its parent: `kill(pid, 0)` still succeeds) or dead, or when its pid now belongs to
 * another process (a different start time than the lock recorded).
 */
export function lockOwnerAlive(record: string): boolean {
  const [pidText, start] = record.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  const stat = procStat(pid);
  if (stat === null) return false;
  if (stat) return stat.state !== "Z" && stat.state !== "X" && (start === undefined || start === stat.start);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite is a single-process database: a second process opening the same directory corrupts it.
 * A lock file naming the owner (pid and start time) turns that into a clear error; a lock whose
 * owner died, even one killed a moment ago and not yet reaped, or whose pid was reused, is taken over.
 */
export function lockDataDir(dir: string): void {
  const lock = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, lockRecord(process.pid), { flag: "wx" });
      process.once("exit", () => rmSync(lock, { force: true }));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const record = readFileSync(lock, "utf8");
      const owner = Number(record.trim().split(" ")[0]);
      if (owner === process.pid) return;
      if (lockOwnerAlive(record)) {
        throw new DataDirLockedError(dir, owner);
      }
      rmSync(lock, { force: true });
    }
  }
}

/**
 * PGlite's server settings. Postgres runs inside this process, in a WebAssembly memory that starts
 * at 128 MB (the module's minimum) and never shrinks or gives a page back: whatever Postgres touches
 * once, even memory it freed, stays in the server's resident set (docs/benchmarks.md, "Memory").
 * - shared_buffers=8MB: Postgres's buffers are all touched when it starts (128 MB by default, which
 *   grew the memory to 189 MB; 32 MB, 47 MB resident at start, against 21 MB now). A page that is
 *   not in them is one read away in the OS's cache: in a quick bench run, 16,000 of 840,000 page
 *   reads missed the buffers.
 * - default_statistics_target=30: ANALYZE (the embedded autovacuum runs it after writes,
 *   lib/db/embedded-vacuum.ts) holds a sample of 300 × target rows in memory; with Postgres's 100 a
 *   20,000-row table took 12 MB more of the memory for good, with 30 it takes 5. 9,000 sampled
 *   rows is still every row of most tables of a school, and 30 buckets are plenty for the planner's
 *   choices here (unique keys and a school's ranges).
 */
export const PGLITE_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, "-c", "shared_buffers=8MB", "-c", "default_statistics_target=30"];

/**
 * `memory://` keeps the database in memory; anything else is a directory on disk. `startParams`
 * replaces the settings (bench/pglite-config.ts and the crash test's control use it; the server never does).
 */
export function createPgliteDriver(dataDir: string, settings: { startParams?: readonly string[] } = {}): Driver {
  const options = { startParams: [...(settings.startParams ?? PGLITE_START_PARAMS)] };
  if (dataDir.startsWith("memory://")) return { kind: "pglite", pglite: new PGlite(options), dataDir };
  const abs = path.resolve(dataDir);
  mkdirSync(path.dirname(abs), { recursive: true });
  lockDataDir(abs);
  return { kind: "pglite", pglite: new PGlite(abs, options), dataDir: abs };
}

export async function withSqlSession<T>(driver: Driver, fn: (s: SqlSession) => Promise<T>): Promise<T> {
  if (driver.kind === "pglite") {
    const db = driver.pglite;
    return fn({
      query: async <R,>(sql: string, params?: unknown[]) => (await db.query<R>(sql, params)).rows,
      exec: async (sql) => {
        await db.exec(sql);
      },
    });
  }
  const client = await driver.pool.connect();
  try {
    return await fn({
      query: async <R,>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[],
      exec: async (sql) => {
        await client.query(sql);
      },
    });
  } finally {
    client.release();
  }
}

export async function closeDriver(driver: Driver): Promise<void> {
  if (driver.kind === "pg") await driver.pool.end();
  else if (!driver.pglite.closed) await driver.pglite.close();
}
