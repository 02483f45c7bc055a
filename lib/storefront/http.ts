// HTTP plumbing of the storefront's text endpoints: strong ETags, conditional GETs, cache policy.
import { createHash } from "node:crypto";
import { env } from "../env";
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
 * caches. Errors are not cached so a newly published item shows up at once.
 */
export function cacheControlFor(school: Pick<School, "enterpriseTraining"> | null): string {
  if (!school) return "no-store";
  return school.enterpriseTraining ? "private, no-cache" : "public, max-age=60, stale-while-revalidate=300";
}

/** Vary for content that depends on the origin: the forwarded headers count only behind a trusted proxy. */
export function varyHeader(extra: string[] = []): string {
  const forwarded = env().TRUST_PROXY ? ["X-Forwarded-Host", "X-Forwarded-Proto"] : [];
  return ["Accept", ...forwarded, ...extra].join(", ");
}

export function originOf(request: Request): string {
  return requestContext(request).origin;
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
  headers.set("content-length", String(Buffer.byteLength(o.body, "utf8")));
  return new Response(o.request.method === "HEAD" ? null : o.body, { status, headers });
}

/** Markdown error body (lib/storefront/error-document.ts): agents parse the frontmatter like any other document. */
export function markdownError(o: { request: Request; status: ErrorStatus; message: string; headers?: Record<string, string> }): Response {
  const body = errorMarkdown({ origin: originOf(o.request), status: o.status, message: o.message });
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
