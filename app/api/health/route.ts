import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and the e2e harness. */
export async function GET() {
  try {
    await db().$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
  } catch {
    return Response.json({ status: "unavailable", database: "unreachable" }, { status: 503 });
  }
}
