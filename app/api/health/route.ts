import { healthResponse } from "@/lib/health/health";

export const dynamic = "force-dynamic";

/** ok / degraded / unavailable (lib/health/health.ts), for operators and monitoring. */
export const GET = () => healthResponse();
