import { now } from "@/lib/clock";
import { authorizeCron } from "@/lib/admin-api/cron";
import { env } from "@/lib/env";
import { drainMail } from "@/lib/mail/deliver";
import { drainWebhooks } from "@/lib/webhooks/deliver";

export const dynamic = "force-dynamic";
// Delivering takes network round trips; Vercel stops the function at maxDuration.
export const maxDuration = 60;

/** Periodic job (vercel.json crons): delivers every due webhook, then every due mail (lib/mail), within 50 s, so nothing waits on a request to drain it. */
export async function GET(request: Request) {
  const auth = authorizeCron({ headers: request.headers, secret: env().CRON_SECRET });
  if (!auth.ok) {
    return Response.json({ error: auth.error, message: auth.message }, { status: auth.status, headers: { "cache-control": "no-store" } });
  }
  const result = await drainWebhooks({ now, budgetMs: 35_000 });
  const mail = await drainMail({ now, budgetMs: 15_000 });
  return Response.json({ ok: true, ...result, mail }, { headers: { "cache-control": "no-store" } });
}
