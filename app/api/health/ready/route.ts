import { readinessResponse } from "@/lib/health/health";

export const dynamic = "force-dynamic";

/** Readiness for load balancers: 200 or 503 with Retry-After, nothing else to parse. */
export const GET = (request: Request) => readinessResponse(request);
export const HEAD = (request: Request) => readinessResponse(request);
