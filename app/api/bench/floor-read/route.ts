import { floorRead, floorRoutesEnabled } from "@/bench/floors";

// The bench's read floor (bench/floors.ts): one indexed select through the raw driver.
// Off (404) unless BENCH_FLOOR_ROUTES=1.
export const dynamic = "force-dynamic";

const HEADERS = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

export async function GET(): Promise<Response> {
  if (!floorRoutesEnabled()) return new Response("Not Found\n", { status: 404, headers: HEADERS });
  try {
    const id = await floorRead();
    if (!id) return new Response("the demo course is missing (the floors need the demo seed)\n", { status: 409, headers: HEADERS });
    return new Response(`${id}\n`, { headers: HEADERS });
  } catch (err) {
    console.error("bench floor-read failed", err);
    return new Response("floor-read failed\n", { status: 500, headers: HEADERS });
  }
}
