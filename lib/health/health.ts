// What /api/health reports: the database and the rate-limit store, each checked now.
//   ok           everything answers
//   degraded     the database answers; the shared rate-limit store (Redis/KV) does not, so
//                limits hold per instance until it is back (lib/rate-limit/stores/resilient.ts)
//   unavailable  the database does not answer (503: requests needing it get 503 + Retry-After)
import { deadline, probeDatabase } from "../db/probe";
import { DATABASE_RETRY_AFTER_SECONDS } from "../db/unavailable";
import { adminRateLimiter } from "../rate-limit";

/** Health checks answer within this time even when a dependency hangs. */
export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

export type HealthStatus = "ok" | "degraded" | "unavailable";

export interface HealthReport {
  status: HealthStatus;
  database: "ok" | "unreachable";
  /** Why the database is unavailable (lib/db/unavailable.ts), when it is. */
  databaseReason?: string;
  /** Where rate limits are kept: shared (Redis/KV), or per instance (memory, or the shared store is down). */
  rateLimits: { store: string; scope: "shared" | "per_instance"; reachable: boolean };
}

async function probeRateLimits(): Promise<HealthReport["rateLimits"]> {
  const store = adminRateLimiter().store;
  if (!store.ping) return { store: store.kind, scope: "per_instance", reachable: true };
  try {
    await deadline(store.ping(), HEALTH_CHECK_TIMEOUT_MS);
    return { store: store.kind, scope: "shared", reachable: true };
  } catch {
    return { store: store.kind, scope: "per_instance", reachable: false };
  }
}

export async function healthReport(): Promise<HealthReport> {
  const [databaseReason, rateLimits] = await Promise.all([probeDatabase(HEALTH_CHECK_TIMEOUT_MS), probeRateLimits()]);
  const status: HealthStatus = databaseReason ? "unavailable" : rateLimits.reachable ? "ok" : "degraded";
  return {
    status,
    database: databaseReason ? "unreachable" : "ok",
    ...(databaseReason ? { databaseReason } : {}),
    rateLimits,
  };
}

const NO_STORE = { "cache-control": "no-store" };

/** GET /api/health: the report; 200 for ok and degraded, 503 with Retry-After for unavailable. */
export async function healthResponse(): Promise<Response> {
  const report = await healthReport();
  if (report.status === "unavailable") {
    return Response.json(report, { status: 503, headers: { ...NO_STORE, "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } });
  }
  return Response.json(report, { headers: NO_STORE });
}

/**
 * GET /api/health/ready, for load balancers: 200 when this instance can serve requests that need
 * the database, 503 with Retry-After when it cannot. Only the database counts: a rate-limit store
 * outage leaves the instance fully able to serve (limits hold per instance).
 */
export async function readinessResponse(request: Request): Promise<Response> {
  const reason = await probeDatabase(HEALTH_CHECK_TIMEOUT_MS);
  const body = request.method === "HEAD" ? null : reason ? "not ready: database unavailable\n" : "ready\n";
  const headers = { ...NO_STORE, "content-type": "text/plain; charset=utf-8" };
  if (reason) return new Response(body, { status: 503, headers: { ...headers, "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) } });
  return new Response(body, { headers });
}
