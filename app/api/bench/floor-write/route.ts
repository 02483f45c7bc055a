import { floorRoutesEnabled, floorWrite } from "@/bench/floors";

// The bench's write floor (bench/floors.ts): createSubscription's writes through the raw
// driver, one transaction. Off (404) unless BENCH_FLOOR_ROUTES=1.
export const dynamic = "force-dynamic";

const HEADERS = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

export async function POST(): Promise<Response> {
  if (!floorRoutesEnabled()) return new Response("Not Found\n", { status: 404, headers: HEADERS });
  try {
    return new Response(`${await floorWrite()}\n`, { headers: HEADERS });
  } catch (err) {
    console.error("bench floor-write failed", err);
    return new Response("floor-write failed\n", { status: 500, headers: HEADERS });
  }
}
