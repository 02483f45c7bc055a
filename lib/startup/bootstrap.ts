import { ConfigError, env, seedOnStart } from "../env";
import { findReadmeDemoSecrets } from "./seed/demo-secrets-check";
import { seedDemoForEnv } from "./seed/seed-for-env";
import { dbHandle, type DbHandle } from "../db/client";
import { DataDirLockedError } from "../db/driver";
import { migrate, MigrationError, pendingMigrations } from "../db/migrator";
import { waitForDatabase } from "../db/wait";
import { isDatabaseEmpty } from "./seed/seed";
import { schoolsSendingMail } from "../mail/required";

export class StartupError extends Error {
  override name = "StartupError";
}

const CONNECT_TIMEOUT_MS = 5_000;

function describeTarget(handle: DbHandle): string {
  if (handle.driver.kind === "pglite") return `embedded PGlite at ${handle.driver.dataDir}`;
  const u = new URL(handle.driver.url);
  return `DATABASE_URL (${u.hostname}:${u.port || 5432}${u.pathname})`;
}

async function selectOne(handle: DbHandle): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000}s`), { code: "ETIMEDOUT" })),
      CONNECT_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([handle.prisma.$queryRawUnsafe("SELECT 1"), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Connects, retrying an unreachable database with backoff for DATABASE_STARTUP_WAIT_SECONDS (lib/db/wait.ts). */
async function checkConnection(handle: DbHandle, log: (line: string) => void): Promise<void> {
  try {
    await waitForDatabase({
      attempt: () => selectOne(handle),
      maxWaitMs: env().DATABASE_STARTUP_WAIT_SECONDS * 1000,
      log,
      target: describeTarget(handle),
    });
  } catch (err) {
    const e = err as Error & { code?: string; cause?: { message?: string } };
    const reason = e.cause?.message ?? e.message.split("\n").filter(Boolean).pop() ?? String(err);
    throw new StartupError(`cannot connect to ${describeTarget(handle)}: ${reason}`);
  }
}

/** Refuses (StartupError, one line) when the database lacks migrations this code ships. */
export async function requireCurrentSchema(handle: DbHandle): Promise<void> {
  const pending = await pendingMigrations({ driver: handle.driver });
  if (pending.length) {
    throw new StartupError(
      `the database schema is not current (${pending.length} migration${pending.length === 1 ? "" : "s"} pending, first ${pending[0]}): run \`npm run db:migrate\` with DIRECT_DATABASE_URL set, then start again`,
    );
  }
}

/**
 * Validates env, connects, brings the schema up to date (production on Postgres: only checks it is)
 * and seeds an empty database. Throws StartupError or ConfigError.
 */
export async function bootstrap(options: { log?: (line: string) => void } = {}): Promise<void> {
  const log = options.log ?? ((line) => console.log(`schoolhouse: ${line}`));
  const e = env();
  let handle: DbHandle;
  try {
    handle = dbHandle();
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new StartupError(err.message);
    throw err;
  }
  await checkConnection(handle, log);
  if (e.NODE_ENV === "production" && handle.driver.kind === "pg") {
    // Production on Postgres: migrations are a deploy step (`npm run db:migrate` on the direct
    // URL); a start only checks, so cold starts never race each other through DDL on a pooler.
    await requireCurrentSchema(handle);
  } else {
    try {
      const { applied, modified } = await migrate({ driver: handle.driver });
      if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
      for (const name of modified) log(`warning: migration ${name} was modified after it was applied`);
    } catch (err) {
      if (err instanceof MigrationError) throw new StartupError(err.message);
      throw err;
    }
  }
  const production = e.NODE_ENV === "production" && Boolean(e.DATABASE_URL);
  if (seedOnStart(e) && (await isDatabaseEmpty(handle.prisma))) {
    await seedDemoForEnv({ prisma: handle.prisma, env: e, log });
    log("seeded the demo schools (empty database)");
  }
  if (production) {
    const found = await findReadmeDemoSecrets(handle.prisma);
    if (found.length) {
      throw new StartupError(
        `refusing to serve production: the database accepts the README's demo credentials (${found.join(", ")}); ` +
          "revoke or rotate them (npm run apikey, npm run oauth-client -- rotate) or use a fresh database",
      );
    }
  }
  if (production && !e.MAIL_URL) {
    const sending = await schoolsSendingMail(handle.prisma);
    if (sending.length) {
      throw new StartupError(
        `refusing to serve production without MAIL_URL: ${sending.length === 1 ? "school" : "schools"} ${sending.join(", ")}${sending.length === 3 ? ", …" : ""} ${sending.length === 1 ? "sends" : "send"} mail (password reset, email verification, welcome); ` +
          "set MAIL_URL=smtp://… (docs/deploy.md, \"Mail\"), or turn each kind off for every school (npm run school -- mail)",
      );
    }
  }
}

/** One line for a start-up failure: the reason, never a stack trace. */
export function startupFailureLine(err: unknown): string {
  if (err instanceof ConfigError) return `schoolhouse: invalid configuration: ${err.message}`;
  if (err instanceof StartupError || err instanceof DataDirLockedError) return `schoolhouse: ${err.message}`;
  const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
  return `schoolhouse: start-up failed: ${msg}`;
}
