import { now } from "@/lib/clock";
import { authorizeCron, runScheduledJobs } from "@/lib/admin-api/cron";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

/** Periodic job (vercel.json crons): due cancellations and expiries, stale idempotency records. */
export async function GET(request: Request) {
  const auth = authorizeCron({ headers: request.headers, secret: env().CRON_SECRET });
  if (!auth.ok) {
    return Response.json({ error: auth.error, message: auth.message }, { status: auth.status, headers: { "cache-control": "no-store" } });
  }
  const result = await runScheduledJobs({ now: now() });
  return Response.json({ ok: true, ...result }, { headers: { "cache-control": "no-store" } });
}
