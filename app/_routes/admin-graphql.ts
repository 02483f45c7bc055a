// The /admin/graphql handlers of the route table (./table.ts), which proxy.ts answers itself for
// GET, POST and OPTIONS: after the proxy, Next's own handling of a route handler (route resolution,
// the app-route module's request context and work store, a second response pipe) cost about as
// much CPU as the bare route does in all (docs/benchmarks.md, 15admin3). Here, not in lib/, because
// the Vercel delivery hook is Next's after(). Imported on first use (the table's lazy()).
import { after } from "next/server";
import { now } from "@/lib/clock";
import { createAdminHandler } from "@/lib/admin-api/handler";
import { adminRateLimitPlugin } from "@/lib/rate-limit";
import { drainWebhooks } from "@/lib/webhooks/deliver";

// Rate limits per credential (lib/rate-limit): after authentication, API-Version and validation.
const handle = createAdminHandler({ plugins: [adminRateLimitPlugin()] });

// On Vercel no process outlives a request, so the events a mutation wrote are delivered right after
// its response (the cron route catches whatever this misses). Elsewhere the in-process worker does it.
const drainAfterResponse = () => {
  if (process.env.VERCEL) after(() => drainWebhooks({ now, budgetMs: 10_000 }).then(() => undefined));
};

export const GET = (request: Request) => handle(request);
export const POST = async (request: Request) => {
  const response = await handle(request);
  drainAfterResponse();
  return response;
};
export const OPTIONS = (request: Request) => handle(request);
