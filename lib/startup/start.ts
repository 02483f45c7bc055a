import { bootstrap, startupFailureLine } from "./bootstrap";

/** Server start-up: a failure prints one line and stops the process rather than serving errors. */
export async function startOrExit(): Promise<void> {
  try {
    await bootstrap();
  } catch (err) {
    console.error(startupFailureLine(err));
    process.exit(1);
  }
}
