import { startupFailureLine } from "../lib/db/bootstrap";

/** Runs a CLI body; a failure prints one line and exits 1. */
export async function runCli(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    console.error(startupFailureLine(err));
    process.exit(1);
  }
}
