import { now } from "@/lib/clock";
import { authorizeCron, runScheduledJobs } from "@/lib/admin-api/cron";
import { asDatabaseUnavailable, retryAfterHeaders } from "@/lib/db/unavailable";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/** Periodic job (vercel.json crons): due cancellations and expiries, stale idempotency records. */
export async function GET(request: Request) {
  const auth = authorizeCron({ headers: request.headers, secret: env().CRON_SECRET });
  if (!auth.ok) {
    return Response.json({ error: auth.error, message: auth.message }, { status: auth.status, headers: { "cache-control": "no-store" } });
  }
  try {
    const result = await runScheduledJobs({ now: now() });
    return Response.json({ ok: true, ...result }, { headers: { "cache-control": "no-store" } });
  } catch (err) {
    // The scheduler retries on 5xx; the jobs are idempotent, so a cut run is simply run again.
    if (!asDatabaseUnavailable(err)) throw err;
    return Response.json(
      { error: "temporarily_unavailable", message: "The database is unavailable; the jobs will run on the next call" },
      { status: 503, headers: { "cache-control": "no-store", ...retryAfterHeaders() } },
    );
  }
}
