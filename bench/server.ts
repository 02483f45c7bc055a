// The bench server: a production build started with the production entry (server/start.mjs, as
// `npm run serve`) on a scratch database, its process tree and memory.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

const ROOT = process.cwd();
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
/** The production entry, `npm start` / `npm run serve`'s script (package.json). */
export const SERVER_ENTRY = "server/start.mjs";

/** Newest modification time under the folders a production build depends on. */
function newestSource(): number {
  let newest = 0;
  const walk = (p: string) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      const base = path.basename(p);
      if (base === "node_modules" || base === "generated" || base.startsWith(".")) return;
      for (const e of readdirSync(p)) walk(path.join(p, e));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ["app", "lib", "prisma", "public", "proxy.ts", "instrumentation.ts", "next.config.mjs", "package.json"]) {
    walk(path.join(ROOT, p));
  }
  return newest;
}

/** Whether .next holds a production build at least as new as the sources. */
export function buildIsFresh(): boolean {
  const id = path.join(ROOT, ".next", "BUILD_ID");
  return existsSync(id) && statSync(id).mtimeMs >= newestSource();
}

export function buildApp(log: (line: string) => void): number {
  const started = Date.now();
  log("building the production app (next build)…");
  // One build serves every backend; each bench server gets its scratch database at start. The
  // caller's DATABASE_URL/REDIS_URL only name the servers to create scratch databases on, and
  // the build's environment check would otherwise demand production secrets for them.
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], { env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (r.status !== 0) throw new Error(`next build failed:\n${(r.stdout ?? "") + (r.stderr ?? "")}`);
  return (Date.now() - started) / 1000;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  port: number;
  env: Record<string, string>;
  /** Directory for `node --cpu-prof` profiles; written when the server exits. */
  cpuProfileDir?: string;
}

/** The origin a bench server on `port` is reached at (and so the issuer of the tokens it accepts). */
export const benchOrigin = (port: number): string => `http://127.0.0.1:${port}`;

/**
 * V8 flags the server runs with, as `npm start` / `npm run serve` start it (package.json): the old
 * generation capped at 320 MB (docs/benchmarks.md, "Memory": under load V8 grew it to 400 MB
 * around 120 MB of live objects).
 */
export const SERVER_NODE_FLAGS = ["--max-old-space-size=320"];

/**
 * Environment the server runs with, as `npm start` / `npm run serve` set it (package.json), for
 * glibc's malloc (docs/benchmarks.md, "Memory"; ignored by other C libraries):
 * - two arenas: by default every thread that allocates (V8's compiler and GC workers, libuv's
 *   pool) gets its own arena, and freed memory stays in the arena that freed it (under the bench,
 *   five arenas held 137 MB; two hold 110 MB);
 * - blocks of 32 KB and more from mmap, returned to the kernel when freed: V8's optimizing
 *   compiler takes its working memory in 32 KB zone segments and frees them after each
 *   compilation; from the arenas they left about 75 MB freed but resident between longer-lived
 *   blocks (what `malloc_trim` released in a running server). Without a fixed threshold glibc
 *   raises its own after the first large free, and the segments go back to the arenas.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "32768" };

export class BenchServer {
  private output = "";
  private exited = false;
  private exitCode: number | null = null;

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.on("data", (d) => (this.output += d));
    child.stderr!.on("data", (d) => (this.output += d));
    child.on("exit", (code) => {
      this.exited = true;
      this.exitCode = code;
    });
  }

  get origin(): string {
    return benchOrigin(this.port);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get log(): string {
    return this.output;
  }

  static async start(options: StartOptions): Promise<BenchServer> {
    const nodeArgs = [...SERVER_NODE_FLAGS, ...(options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [])];
    // -H localhost (loopback only), not 127.0.0.1: Next 16 builds the proxy's request.url on
    // "localhost" whatever -H says, so with -H 127.0.0.1 every proxy rewrite (the HTML page cache,
    // markdown negotiation) counts as another origin and is proxied over HTTP back into the server.
    const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, SERVER_ENTRY), "-p", String(options.port), "-H", "localhost"], {
      env: { ...process.env, ...options.env, ...SERVER_ENV, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const server = new BenchServer(child, options.port);
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (server.exited) throw new Error(`the bench server exited (code ${server.exitCode}) before it was ready:\n${server.output}`);
      try {
        const res = await fetch(`${server.origin}/api/health`, { signal: AbortSignal.timeout(2_000) });
        if (res.ok) return server;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await server.stop();
    throw new Error(`the bench server did not become ready within 90 s:\n${server.output}`);
  }

  /** Stops gracefully (so `--cpu-prof` can write its profile), then forcefully. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((r) => this.child.once("exit", () => r()));
    const tree = processTree(this.pid);
    this.child.kill("SIGINT");
    const timer = setTimeout(() => {
      for (const pid of tree) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, 10_000);
    await done;
    clearTimeout(timer);
  }
}

/** pid and all its descendants, from /proc. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses; fields resume after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // exited while scanning
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function statusKb(pid: number, field: "VmHWM" | "VmRSS"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Peak resident memory of the server's process tree. The kernel keeps each process's high-water
 * mark (VmHWM); writing 5 to clear_refs resets it, so each workload gets its own peak. Sampling the
 * current RSS every 100 ms backs it up where the reset is not permitted.
 */
export class RssMeter {
  private sampledPeakKb = 0;
  private timer?: NodeJS.Timeout;
  resetSupported = true;

  constructor(private readonly rootPid: number) {}

  start(): void {
    for (const pid of processTree(this.rootPid)) {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, "5");
      } catch {
        this.resetSupported = false;
      }
    }
    this.sampledPeakKb = 0;
    const sample = () => {
      const kb = processTree(this.rootPid).reduce((s, pid) => s + statusKb(pid, "VmRSS"), 0);
      this.sampledPeakKb = Math.max(this.sampledPeakKb, kb);
    };
    sample();
    this.timer = setInterval(sample, 100);
  }

  /** Peak in MB since start(). */
  stop(): number {
    clearInterval(this.timer);
    const hwmKb = processTree(this.rootPid).reduce((s, pid) => s + statusKb(pid, "VmHWM"), 0);
    const kb = this.resetSupported ? Math.max(hwmKb, this.sampledPeakKb) : this.sampledPeakKb;
    return kb / 1024;
  }
}

/** Local TCP ports of the tree's connections to a remote port (used to recognise its Redis clients). */
export function localPortsConnectedTo(rootPid: number, remotePort: number): Set<number> {
  const inodes = new Set<string>();
  for (const pid of processTree(rootPid)) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch {
        // closed meanwhile
      }
    }
  }
  const ports = new Set<number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let lines: string[] = [];
    try {
      lines = readFileSync(table, "utf8").split("\n").slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const local = cols[1]!;
      const remote = cols[2]!;
      const inode = cols[9]!;
      if (!inodes.has(inode)) continue;
      if (parseInt(remote.split(":")[1]!, 16) !== remotePort) continue;
      ports.add(parseInt(local.split(":")[1]!, 16));
    }
  }
  return ports;
}
