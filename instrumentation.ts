// Next.js calls register() once per server process before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startOrExit } = await import("./lib/startup/start");
    await startOrExit();
    // A long-running server delivers webhooks itself; on Vercel, after-response draining and the cron route do.
    const { env } = await import("./lib/env");
    if (env().WEBHOOKS_WORKER && !process.env.VERCEL) {
      const { startWebhookWorker } = await import("./lib/webhooks/worker");
      startWebhookWorker();
    }
  }
}
