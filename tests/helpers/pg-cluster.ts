// A throwaway PostgreSQL server of a test's own (initdb + pg_ctl in a temporary directory), so
// tests can stop and restart it without touching the shared server. Running as root, the server
// runs as the `postgres` user (Postgres refuses to run as root).
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The bin directory holding initdb and pg_ctl, or null: PG_BIN_DIR, else the newest Debian/Ubuntu
 * install (/usr/lib/postgresql/<version>/bin), else wherever initdb is on PATH.
 */
export function postgresBinDir(): string | null {
  const usable = (dir: string) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"));
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv && usable(fromEnv)) return fromEnv;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => usable(path.join(root, v, "bin")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], "bin");
  }
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir && usable(dir));
  return onPath ?? null;
}

export interface PgCluster {
  port: number;
  /** postgresql://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  start(): void;
  /** `pg_ctl -m immediate stop`: the crash an outage looks like. */
  stop(mode?: "immediate" | "fast"): void;
  destroy(): void;
}

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

function run(bin: string, args: string[]): void {
  const command = asRoot ? "runuser" : bin;
  const argv = asRoot ? ["-u", "postgres", "--", bin, ...args] : args;
  const r = spawnSync(command, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(" ")} failed: ${r.stderr || r.stdout}`);
}

/** initdb a new cluster on `port` (trust auth, no fsync: it is thrown away) and start it. */
export function createPgCluster(options: { port: number; binDir: string }): PgCluster {
  const { port, binDir } = options;
  const base = mkdtempSync(path.join(tmpdir(), "sh-pg-"));
  const dataDir = path.join(base, "data");
  const logFile = path.join(base, "server.log");
  if (asRoot) execFileSync("chown", ["postgres:postgres", base]);
  else chownSync(base, process.getuid!(), process.getgid!());
  run(path.join(binDir, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const pgCtl = path.join(binDir, "pg_ctl");
  const cluster: PgCluster = {
    port,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    start() {
      const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k ${base} -c fsync=off -c full_page_writes=off -c max_connections=50`;
      run(pgCtl, ["-D", dataDir, "-l", logFile, "-o", opts, "-w", "-t", "30", "start"]);
    },
    stop(mode = "immediate") {
      run(pgCtl, ["-D", dataDir, "-m", mode, "-w", "-t", "30", "stop"]);
    },
    destroy() {
      try {
        cluster.stop("immediate");
      } catch {
        // Already stopped.
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
