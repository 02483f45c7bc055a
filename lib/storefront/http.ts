// HTTP plumbing of the storefront's text endpoints: strong ETags, conditional GETs, cache policy.
import { createHash } from "node:crypto";
import { env } from "../env";
import { retryAfterHeaders } from "../db/unavailable";
import type { School } from "../db/generated/client";
import { requestContext } from "../tenancy/request-context";
import { errorMarkdown, type ErrorStatus } from "./error-document";

export const MARKDOWN_TYPE = "text/markdown; charset=utf-8";

/** Strong validator: the SHA-256 of the exact bytes sent (absolute URLs included, so per origin). */
export function strongEtag(body: string): string {
  return `"${createHash("sha256").update(body, "utf8").digest("base64url").slice(0, 32)}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/"x" matches "x"; `*` matches any. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const value = ifNoneMatch.trim();
  if (value === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return value.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/**
 * Cache policy (docs/decisions.md): public schools' content may sit in shared caches for a minute
 * and be served stale while revalidating; enterprise-training schools' content stays out of shared
 * caches. Errors are not cached so a newly published item shows up at once. stale-if-error (RFC
 * 5861) lets shared caches keep serving public content for a day while we answer 5xx.
 */
export function cacheControlFor(school: Pick<School, "enterpriseTraining"> | null): string {
  if (!school) return "no-store";
  return school.enterpriseTraining ? "private, no-cache" : "public, max-age=60, stale-while-revalidate=300, stale-if-error=86400";
}

/**
 * Headers of a last built copy served while the database is unavailable: the Warning RFC 5861
 * caches send with stale content (110, RFC 7234 §5.5.1), and no-store so no cache keeps the old
 * copy as if it were fresh.
 */
export const STALE_HEADERS: Readonly<Record<string, string>> = {
  warning: '110 - "Response is Stale"',
  "cache-control": "no-store",
};

/** Vary for content that depends on the origin: the forwarded headers count only behind a trusted proxy. */
export function varyHeader(extra: string[] = []): string {
  const forwarded = env().TRUST_PROXY ? ["X-Forwarded-Host", "X-Forwarded-Proto"] : [];
  return ["Accept", ...forwarded, ...extra].join(", ");
}

export interface TextResponseOptions {
  request: Request;
  body: string;
  contentType: string;
  cacheControl: string;
  status?: number;
  headers?: Record<string, string>;
  /** strongEtag(body), when the caller already has it (cached pages). */
  etag?: string;
  /** The body already encoded as UTF-8 (cached pages): sent as is, nothing encoded per response. */
  encoded?: Uint8Array<ArrayBuffer>;
}

/** A text response with ETag and 304 handling; HEAD gets the same headers without the body. */
export function textResponse(o: TextResponseOptions): Response {
  const status = o.status ?? 200;
  const headers = new Headers({
    "content-type": o.contentType,
    "cache-control": o.cacheControl,
    vary: varyHeader(),
    "x-content-type-options": "nosniff",
    ...o.headers,
  });
  if (status === 200) {
    const etag = o.etag ?? strongEtag(o.body);
    headers.set("etag", etag);
    if (etagMatches(o.request.headers.get("if-none-match"), etag)) {
      headers.delete("content-type");
      return new Response(null, { status: 304, headers });
    }
  }
  headers.set("content-length", String(o.encoded ? o.encoded.byteLength : Buffer.byteLength(o.body, "utf8")));
  return new Response(o.request.method === "HEAD" ? null : (o.encoded ?? o.body), { status, headers });
}

/** Markdown error body (lib/storefront/error-document.ts): agents parse the frontmatter like any other document. */
export function markdownError(o: { request: Request; status: ErrorStatus; message: string; headers?: Record<string, string>; retryAfter?: number }): Response {
  const body = errorMarkdown({ origin: requestContext(o.request).origin, status: o.status, message: o.message, retryAfter: o.retryAfter });
  return textResponse({ request: o.request, body, status: o.status, contentType: MARKDOWN_TYPE, cacheControl: "no-store", headers: o.headers });
}

/** The methods every /api/md path answers; anything else is a 405 naming them in Allow. */
export const MARKDOWN_ALLOW = "GET, HEAD, OPTIONS";

export function methodNotAllowed(request: Request): Response {
  return markdownError({
    request,
    status: 405,
    message: `${request.method} is not supported here: markdown documents are read with GET or HEAD.`,
    headers: { allow: MARKDOWN_ALLOW },
  });
}

export function markdownOptions(): Response {
  return new Response(null, { status: 204, headers: { allow: MARKDOWN_ALLOW, "cache-control": "no-store" } });
}

/** The markdown answer while the database is unavailable and the page was never built here. */
export function markdownUnavailable(request: Request): Response {
  const retry = retryAfterHeaders();
  return markdownError({
    request,
    status: 503,
    message: `This page cannot be loaded right now because the service's database is unavailable. Retry in ${retry["retry-after"]} seconds.`,
    headers: retry,
    retryAfter: Number(retry["retry-after"]),
  });
}

/** The HTML answer while the database is unavailable and the page was never built here. */
export function htmlUnavailable(): Response {
  const seconds = retryAfterHeaders()["retry-after"];
  const body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta http-equiv="refresh" content="${seconds}"><title>Temporarily unavailable</title>
<style>body{font-family:ui-sans-serif,system-ui,sans-serif;color:#1c1d21;background:#fbfaf7;margin:0;line-height:1.55}.wrap{max-width:640px;margin:0 auto;padding:2rem 1.25rem}</style>
</head><body><main class="wrap">
<h1>Temporarily unavailable</h1>
<p>This page cannot be loaded right now because our database is briefly unavailable. Nothing is wrong with your request.</p>
<p>This page tries again by itself in ${seconds} seconds.</p>
</main></body></html>
`;
  return new Response(body, {
    status: 503,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", ...retryAfterHeaders() },
  });
}
