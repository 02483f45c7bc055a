import { requireCurrentSchema, startupFailureLine, StartupError } from "../lib/startup/bootstrap";
import { closeDbHandle, dbHandle, type DbHandle } from "../lib/db/client";
import { DataDirLockedError } from "../lib/db/driver";
import { migrate } from "../lib/db/migrator";
import { parseCommandLine, type CommandLine, type Flags } from "./command-line";

/** Runs a CLI body; a failure prints one line and exits 1. */
export async function runCli(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    console.error(startupFailureLine(err));
    process.exit(1);
  }
}

export type { CommandLine } from "./command-line";

/** `--help`, `-h` or `help` anywhere before a `--`: the usage, without opening the database. */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h") || args[0] === "help";
}

/**
 * Runs an operator command (`npm run <name> -- <command> …`) against the database: the embedded
 * database is migrated first (no one else can), Postgres must already be current (`npm run
 * db:migrate` is the deploy step). `--help` prints the usage without touching the database. Errors
 * the command expects, a bad flag, and an embedded database another process (`npm start`) holds
 * print as one line `<name>: <message>`; exit code 1.
 */
export async function runDbCommand<const F extends Flags>(options: {
  name: string;
  usage: string;
  flags: F;
  expected: (err: unknown) => boolean;
  body: (line: CommandLine<F>) => Promise<void>;
}): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (asksForHelp(process.argv.slice(2))) {
    console.log(options.usage);
    return;
  }
  if (!command) {
    console.error(options.usage);
    process.exitCode = 1;
    return;
  }
  let handle: DbHandle | undefined;
  try {
    const line = parseCommandLine(command, args, options.flags);
    handle = dbHandle();
    if (handle.driver.kind === "pglite") await migrate({ driver: handle.driver });
    else await requireCurrentSchema(handle);
    await options.body(line);
  } catch (err) {
    const oneLine = options.expected(err) || err instanceof StartupError || err instanceof DataDirLockedError || (err instanceof Error && err.name === "TypeError");
    console.error(
      err instanceof DataDirLockedError
        ? `${options.name}: the embedded database ${err.dir} is in use by process ${err.owner} (npm start?): stop it, run this command, then start it again (PGlite allows one process; with DATABASE_URL both share Postgres)`
        : oneLine
          ? `${options.name}: ${(err as Error).message}`
          : err,
    );
    process.exitCode = 1;
  } finally {
    if (handle) await closeDbHandle(handle);
  }
}
