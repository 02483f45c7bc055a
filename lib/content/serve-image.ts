import { db } from "../db/client";
import { isDatabaseUnavailable, retryAfterHeaders } from "../db/unavailable";
import { parseMediaPath } from "./images";
import { parseRendition, resizeImage } from "./resize-image";
import { requestContext } from "../tenancy/request-context";

// GET /media/<sha256>/<name>: an image of the school's content (lib/content/images.ts). The
// address names the bytes, so the answer never changes: cached for a year and immutable. SVG is
// served with a sandboxing CSP so an image opened on its own runs no script (as <img> never does).
// ?w=<width>&q=<quality> asks for a resized rendition (lib/content/resize-image.ts): next/image's
// loader for content images (app/(storefront)/_components/media-loader.ts) writes those URLs.

const YEAR = 365 * 24 * 60 * 60;

function badRequest(message: string): Response {
  return new Response(`${message}\n`, { status: 400, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

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
  const url = new URL(request.url);
  const media = parseMediaPath(url.pathname);
  if (!media) return notFound();
  const rendition = parseRendition(url.searchParams);
  if (rendition && "error" in rendition) return badRequest(rendition.error);
  const school = await requestContext(request).school();
  if (!school) return notFound();
  const row = await db().contentImage.findUnique({ where: { schoolId_sha256: { schoolId: school.id, sha256: media.sha256 } } });
  if (!row) return notFound();
  const acceptsWebp = /\bimage\/webp\b/i.test(request.headers.get("accept") ?? "");
  const resized = rendition ? await resizeImage({ sha256: row.sha256, contentType: row.contentType, bytes: Buffer.from(row.bytes), rendition, acceptsWebp }) : null;
  const bytes = resized?.bytes ?? row.bytes;
  const contentType = resized?.contentType ?? row.contentType;
  const etag = resized && rendition ? `"${row.sha256}-${rendition.width}-${rendition.quality}-${contentType.slice(6)}"` : `"${row.sha256}"`;
  const headers: Record<string, string> = {
    "content-type": contentType,
    // Enterprise-training schools' images stay out of shared caches, like their pages.
    "cache-control": `${school.enterpriseTraining ? "private" : "public"}, max-age=${YEAR}, immutable`,
    etag,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "cross-origin-resource-policy": "same-site",
  };
  // The rendition's format follows Accept (WebP when the client takes it).
  if (resized) headers.vary = "Accept";
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  headers["content-length"] = String(bytes.length);
  return new Response(request.method === "HEAD" ? null : new Uint8Array(bytes), { status: 200, headers });
}
