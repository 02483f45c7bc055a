import { parseArgs, type ParseArgsConfig } from "node:util";
import { requireCurrentSchema, startupFailureLine, StartupError } from "../lib/startup/bootstrap";
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

type Flags = NonNullable<ParseArgsConfig["options"]>;

/** `<command> [positionals] [--flags]` as parsed from the process's arguments. */
export type CommandLine<F extends Flags> = { command: string | undefined } & ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; options: F }>
>;

/**
 * Runs an operator command (`npm run <name> -- <command> …`) against the database: the embedded
 * database is migrated first (no one else can), Postgres must already be current (`npm run
 * db:migrate` is the deploy step). Errors the command expects, and a bad flag, print as one line
 * `<name>: <message>`; exit code 1.
 */
export async function runDbCommand<const F extends Flags>(options: {
  name: string;
  flags: F;
  expected: (err: unknown) => boolean;
  body: (line: CommandLine<F>) => Promise<void>;
}): Promise<void> {
  const handle = dbHandle();
  try {
    const [command, ...args] = process.argv.slice(2);
    const line = { command, ...parseArgs({ args, allowPositionals: true, options: options.flags }) };
    if (handle.driver.kind === "pglite") await migrate({ driver: handle.driver });
    else await requireCurrentSchema(handle);
    await options.body(line);
  } catch (err) {
    const oneLine = options.expected(err) || err instanceof StartupError || (err instanceof Error && err.name === "TypeError");
    console.error(oneLine ? `${options.name}: ${(err as Error).message}` : err);
    process.exitCode = 1;
  } finally {
    await closeDbHandle(handle);
  }
}
