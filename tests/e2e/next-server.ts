// The production entry (server/start.mjs, as `npm run serve`) on this build for the specs that need a server of their own (their own database,
// env, a second instance, a kill and a restart), and the production server on Postgres those specs
// share (a database of their own, migrated; an SMTP inbox for MAIL_URL; teardown). It runs node itself, not npx, in its own process
// group: a signal to an npx wrapper leaves the server running, and a leftover server would answer
// the next run's requests.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { closeDriver, createPgDriver } from "../../lib/db/driver";
import { migrate } from "../../lib/db/migrator";
import { startSmtpInbox, type SmtpInbox } from "../helpers/smtp-inbox";

const ENTRY = path.resolve(import.meta.dirname, "../../server/start.mjs");

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

/** Starts the production entry with `-p <port>` and `env` over this process's environment (port 0: any port). */
export function startNextServer(port: number, env: NodeJS.ProcessEnv): NextServer {
  const child = spawn(process.execPath, [ENTRY, "-p", String(port)], {
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
 * A seeded `next start` on a Postgres database that delivers webhooks to a receiver on this machine
 * (tests/helpers/webhook-receiver.ts), with the demo's full-permission API key: the server of the
 * specs that watch webhooks arrive (checkout.spec.ts, webhooks-restart.spec.ts). Resolves once healthy.
 */
export async function startWebhookTestServer(options: { port: number; databaseUrl: string; apiKey: string }): Promise<NextServer> {
  const next = startNextServer(options.port, {
    // The loopback receiver needs the test-only switch, which only NODE_ENV=test accepts.
    NODE_ENV: "test",
    DATABASE_URL: options.databaseUrl,
    PLATFORM_DOMAIN: "localhost",
    DEFAULT_SCHOOL: "demo",
    REDIS_URL: "",
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    // The demo seed runs on its own only on the embedded database (issue 12): ask for it here.
    SEED_ON_START: "1",
    DEMO_API_KEY: options.apiKey,
    WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS: "1",
  });
  await next.healthy();
  return next;
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

/** Variables set over a spec server's defaults. */
export type EnvOverrides = Record<string, string | undefined>;

/** A Postgres database of one spec: created fresh on the server of `adminUrl`, dropped by drop(). */
export interface SpecDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

async function onServer(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<prefix>_<random>` on the server of `adminUrl` (TEST_DATABASE_URL, or a spec's own
 * cluster) and, unless `migrate: false`, applies the migrations as the deploy step does (a production
 * start only checks the schema).
 */
export async function createSpecDatabase(options: { adminUrl: string; prefix: string; migrate?: boolean }): Promise<SpecDatabase> {
  const name = `${options.prefix}_${randomBytes(4).toString("hex")}`;
  await onServer(options.adminUrl, `CREATE DATABASE "${name}"`);
  const url = Object.assign(new URL(options.adminUrl), { pathname: `/${name}` }).toString();
  if (options.migrate !== false) {
    const driver = createPgDriver(url, { max: 1 });
    try {
      await migrate({ driver });
    } finally {
      await closeDriver(driver);
    }
  }
  return { url, drop: () => onServer(options.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * The environment of a production server on Postgres: NODE_ENV production, the database, its mail
 * server (production on DATABASE_URL needs MAIL_URL while schools send mail: docs/deploy.md, "Mail"),
 * a fresh AUTH_SECRET, the demo schools seeded on start, no Redis or KV; `env` overrides any of it.
 */
export function productionEnv(options: { databaseUrl: string; mailUrl: string; env?: EnvOverrides }): NodeJS.ProcessEnv {
  return {
    NODE_ENV: "production",
    DATABASE_URL: options.databaseUrl,
    MAIL_URL: options.mailUrl,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    PLATFORM_DOMAIN: "localhost",
    DEFAULT_SCHOOL: "demo",
    SEED_ON_START: "1",
    REDIS_URL: "",
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    ...options.env,
  } as NodeJS.ProcessEnv;
}

/** A spec's production server: `next start` with productionEnv and an SMTP inbox of its own. */
export interface ProductionServer {
  readonly server: NextServer;
  readonly inbox: SmtpInbox;
  readonly origin: string;
  /** Stops the server, then the inbox. */
  stop(): Promise<void>;
}

/** Starts the inbox and `next start` on `port` over `databaseUrl`, and waits until it is healthy. */
export async function startProductionServer(options: { port: number; databaseUrl: string; env?: EnvOverrides }): Promise<ProductionServer> {
  const inbox = await startSmtpInbox();
  const server = startNextServer(options.port, productionEnv({ databaseUrl: options.databaseUrl, mailUrl: inbox.url, env: options.env }));
  try {
    await server.healthy();
  } catch (err) {
    await server.stop();
    await inbox.close();
    throw err;
  }
  return {
    server,
    inbox,
    origin: `http://localhost:${options.port}`,
    async stop() {
      await server.stop();
      await inbox.close();
    },
  };
}
