import { db } from "../db/client";
import { isDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { parseMediaPath } from "./images";
import { requestContext } from "../tenancy/request-context";

// GET /media/<sha256>/<name>: an image of the school's content (lib/content/images.ts). The
// address names the bytes, so the answer never changes: cached for a year and immutable. SVG is
// served with a sandboxing CSP so an image opened on its own runs no script (as <img> never does).

const YEAR = 365 * 24 * 60 * 60;

function notFound(): Response {
  return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

/** The image, or 503 with Retry-After while the database is unreachable (no stack trace, no 500). */
export async function serveContentImage(request: Request): Promise<Response> {
  try {
    return await answer(request);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    return new Response("The school's images are unavailable for a moment; retry shortly.\n", {
      status: 503,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...retryAfterHeaders() },
    });
  }
}

async function answer(request: Request): Promise<Response> {
  const media = parseMediaPath(new URL(request.url).pathname);
  if (!media) return notFound();
  const school = await requestContext(request).school();
  if (!school) return notFound();
  const row = await db().contentImage.findUnique({ where: { schoolId_sha256: { schoolId: school.id, sha256: media.sha256 } } });
  if (!row) return notFound();
  const etag = `"${row.sha256}"`;
  const headers: Record<string, string> = {
    "content-type": row.contentType,
    // Enterprise-training schools' images stay out of shared caches, like their pages.
    "cache-control": `${school.enterpriseTraining ? "private" : "public"}, max-age=${YEAR}, immutable`,
    etag,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "cross-origin-resource-policy": "same-site",
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  headers["content-length"] = String(row.bytes.length);
  return new Response(request.method === "HEAD" ? null : new Uint8Array(row.bytes), { status: 200, headers });
}
