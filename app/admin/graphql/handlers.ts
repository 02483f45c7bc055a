// The /admin/graphql request handlers, used by the route (./route.ts) and by proxy.ts, which answers
// the Admin API's GET, POST and OPTIONS itself: after the proxy, Next's own handling of a route
// handler (route resolution, the app-route module's request context and work store, a second
// response pipe) cost about as much CPU as the bare route does in all (docs/benchmarks.md,
// 15admin3). Both call these same functions, so both answer alike.
import { after } from "next/server";
import { now } from "@/lib/clock";
import { createAdminHandler } from "@/lib/admin-api/handler";
import { ADMIN_GRAPHQL_PATH } from "@/lib/admin-api/yoga";
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

const BY_METHOD: ReadonlyMap<string, (request: Request) => Promise<Response>> = new Map([
  ["GET", GET],
  ["POST", POST],
  ["OPTIONS", OPTIONS],
]);

/**
 * The handler proxy.ts answers a request with, or null to let it through to the route: the exact
 * Admin path and the methods the route exports. HEAD and other methods (Next's 405, HEAD by GET)
 * are left to the route, as is any other path (a trailing slash, percent-encoding).
 */
export function adminProxyHandler(method: string, pathname: string): ((request: Request) => Promise<Response>) | null {
  return pathname === ADMIN_GRAPHQL_PATH ? (BY_METHOD.get(method) ?? null) : null;
}
