// The benchmark baseline (npm run bench, docs/benchmarks.md): a bare route handler that returns a
// fixed small body and touches nothing (no database, no tenancy, no env). Every hot path is
// reported as a ratio to this route measured in the same run on the same build, which makes
// results comparable across machines. It reveals nothing and costs nothing, so it is always on.
export const dynamic = "force-dynamic";

const BODY = "ok\n";

export function GET(): Response {
  return new Response(BODY, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}
