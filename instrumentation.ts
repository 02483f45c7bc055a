// Next.js calls register() once per server process before it serves requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startOrExit } = await import("./lib/startup/start");
    await startOrExit();
    // OpenID Connect signing keys are made at first start (one per alg; instances starting together
    // make one set). A failure here is not fatal: the first token or jwks_uri request makes them.
    const { ensureSigningKeys } = await import("./lib/oidc/key-store");
    await ensureSigningKeys(new Date()).catch((err: unknown) => console.error("oidc signing keys:", err));
    // A long-running server delivers webhooks and runs renewals itself; on Vercel, after-response
    // draining and the cron routes do.
    const { env } = await import("./lib/env");
    if (env().WEBHOOKS_WORKER && !process.env.VERCEL) {
      const { startWebhookWorker } = await import("./lib/webhooks/worker");
      startWebhookWorker({ renewals: true });
    }
  }
}
