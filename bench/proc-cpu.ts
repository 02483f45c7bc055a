// CPU time of processes from /proc (user + system), which, unlike throughput, other load on a
// shared machine barely moves: the bench's CPU per request of our server, the peer and their
// Postgres backends (docs/benchmarks.md, "The peer").
import { readFileSync } from "node:fs";
import pg from "pg";
import { processTree } from "./server";

const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** utime + stime of one /proc stat file, in ms (0 once the process is gone). */
export function statCpuMs(file: string): number {
  try {
    const stat = readFileSync(file, "utf8");
    // The command name may hold spaces and parentheses; fields resume after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of a process and all its descendants (V8's helper threads are in each process's figure). */
export const treeCpuMs = (rootPid: number): number => processTree(rootPid).reduce((sum, pid) => sum + statCpuMs(`/proc/${pid}/stat`), 0);

/** CPU per pid, for pids that come and go during a segment (Postgres backends). */
export function pidsCpuMs(pids: Iterable<number>): Map<number, number> {
  return new Map([...pids].map((pid) => [pid, statCpuMs(`/proc/${pid}/stat`)]));
}

/**
 * CPU spent between two readings of a changing set of pids: a pid seen only at the end started
 * during the segment and is counted whole; one gone by the end is lost (pools keep their
 * connections for the bench's segments, so this is rare).
 */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, end] of after) ms += Math.max(0, end - (before.get(pid) ?? 0));
  return ms;
}

/**
 * The Postgres server processes serving one database, split by the client's application_name
 * (the peer's pool names itself), when Postgres runs on this machine: readable in /proc. Null when
 * it does not (another host or container), so the figure is left out rather than wrong.
 */
export class PostgresBackends {
  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async open(databaseUrl: string): Promise<PostgresBackends | null> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: "bench-cpu-probe" });
    await client.connect();
    const { rows } = await client.query<{ pid: number; db: string }>("SELECT pg_backend_pid() AS pid, current_database() AS db");
    if (!readable(rows[0]!.pid)) {
      await client.end();
      return null;
    }
    return new PostgresBackends(client, rows[0]!.db);
  }

  /** Backends of the database whose application_name is (or, with `not`, is not) `app`; never this probe's own. */
  async pids(app: string, not = false): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND ${not ? "application_name IS DISTINCT FROM $2" : "application_name = $2"}`,
      [this.database, app],
    );
    return rows.map((r) => r.pid);
  }

  /** Every backend of the database but this probe's own (one server's, when nothing else uses it). */
  async all(): Promise<number[]> {
    const { rows } = await this.client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [this.database]);
    return rows.map((r) => r.pid);
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

function readable(pid: number): boolean {
  try {
    readFileSync(`/proc/${pid}/stat`, "utf8");
    return true;
  } catch {
    return false;
  }
}
