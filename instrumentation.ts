// Next.js calls register() once per server process before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startOrExit } = await import("./lib/db/start");
    await startOrExit();
  }
}
