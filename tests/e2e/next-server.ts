// A `next start` of this build for the specs that need a server of their own (their own database,
// env, a second instance, a kill and a restart). It runs `next` itself, not npx, in its own process
// group: a signal to an npx wrapper leaves next-server running, and a leftover server would answer
// the next run's requests.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const NEXT = path.resolve(import.meta.dirname, "../../node_modules/next/dist/bin/next");

export interface NextServer {
  readonly child: ChildProcess;
  readonly port: number;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** The exit code once the process has ended (null after a signal). */
  readonly exited: Promise<number | null>;
  /** Waits until /api/health answers 200; fails with the server's output if it exits or never does. */
  healthy(): Promise<void>;
  /** Signals the whole process group and waits for the exit; a no-op once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `next start -p <port>` with `env` over this process's environment (port 0: any port). */
export function startNextServer(port: number, env: NodeJS.ProcessEnv): NextServer {
  const child = spawn(process.execPath, [NEXT, "start", "-p", String(port)], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    detached: true,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    port,
    output: () => out,
    exited,
    async healthy() {
      for (let i = 0; i < 600; i++) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server on ${port} exited: ${out}`);
        if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`server on ${port} did not become healthy: ${out}`);
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // it exited between the check and the signal
      }
      await exited;
    },
  };
}

/**
 * A port nothing listens on now, chosen by the system: for a spec's own server when a fixed offset
 * from E2E_PORT could be another run's port on a shared machine.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
