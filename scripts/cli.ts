import { requireCurrentSchema, startupFailureLine, StartupError } from "../lib/db/bootstrap";
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";

/** Runs a CLI body; a failure prints one line and exits 1. */
export async function runCli(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    console.error(startupFailureLine(err));
    process.exit(1);
  }
}

/**
 * Runs an operator command against the database: the embedded database is migrated first (no one
 * else can), Postgres must already be current (`npm run db:migrate` is the deploy step). Errors the
 * command expects, and a bad flag, print as one line `<name>: <message>`; exit code 1.
 */
export async function runDbCommand(options: { name: string; expected: (err: unknown) => boolean; body: () => Promise<void> }): Promise<void> {
  const handle = dbHandle();
  try {
    if (handle.driver.kind === "pglite") await migrate({ driver: handle.driver });
    else await requireCurrentSchema(handle);
    await options.body();
  } catch (err) {
    const oneLine = options.expected(err) || err instanceof StartupError || (err instanceof Error && err.name === "TypeError");
    console.error(oneLine ? `${options.name}: ${(err as Error).message}` : err);
    process.exitCode = 1;
  } finally {
    await closeDbHandle(handle);
  }
}
