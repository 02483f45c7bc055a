// Shared pieces of the database-outage tests (tests/pg/database-outage.test.ts in process,
// tests/e2e/database-outage.spec.ts through `next start`): free ports, a Redis of the test's own.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** The first port in [from, to] nothing listens on (127.0.0.1). */
export async function freePort(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once("error", () => resolve(false));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A redis-server on `port` with no persistence; start() waits until it accepts connections. */
export function ownRedis(port: number): OwnRedis {
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const c = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
      child = c;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("redis-server did not start within 10 s")), 10_000);
        c.stdout!.on("data", (d: Buffer) => {
          if (/ready to accept connections/i.test(String(d))) {
            clearTimeout(timer);
            resolve();
          }
        });
        c.once("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`redis-server exited with ${code}`));
        });
      });
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once("exit", () => resolve());
        c.kill("SIGKILL");
      });
    },
  };
}

export function redisServerAvailable(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}
