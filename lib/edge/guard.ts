// The edge guard: the first check of every request (proxy.ts runs it for every path). It refuses,
// with 400 in the format of the endpoint addressed, what no route can serve: a URL whose
// percent-encoding is malformed, decodes to invalid UTF-8 or to U+0000, and a Host that is not a
// well-formed host[:port]. Without it those requests reached Next's route matcher or `new URL` and
// ended as 500s. Pure (no Next.js imports): proxy.ts adapts it, tests call it directly.
import { isValidHost, requestHost } from "../tenancy/host";

export type EdgeProblem = "malformed_path" | "malformed_query" | "invalid_host";

const MESSAGES: Record<EdgeProblem, string> = {
  malformed_path: "The path is not valid: percent-encoding must be %XX hex pairs forming UTF-8 text without U+0000.",
  malformed_query: "The query string is not valid: percent-encoding must be %XX hex pairs forming UTF-8 text without U+0000.",
  invalid_host: "The Host header is not a valid host name with an optional port (1-65535).",
};

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Whether a raw (still percent-encoded) URL component decodes cleanly: every `%` starts a hex pair,
 * the decoded bytes are valid UTF-8 (no overlong forms such as %C0%AE, no surrogates such as
 * %ED%A0%80) and contain no NUL. A literal control character is refused as well.
 */
export function isCleanComponent(raw: string): boolean {
  if (!raw.includes("%")) return !raw.includes("\u0000");
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x25) {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return false;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // Non-ASCII characters arrive already decoded (the URL parser percent-encodes them otherwise).
      bytes.push(...Buffer.from(raw[i]!, "utf8"));
    }
  }
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
}

export interface EdgeRequest {
  /** The request URL as received (path and query still percent-encoded). */
  url: string;
  headers: Headers;
  trustProxy: boolean;
}

/** The first problem that makes a request unservable, or null. */
export function edgeProblem(request: EdgeRequest): EdgeProblem | null {
  const host = requestHost(request.headers, { trustProxy: request.trustProxy });
  // HTTP/1.0 may omit Host; Node refuses an HTTP/1.1 request without one before we run.
  if (host !== null && !isValidHost(host)) return "invalid_host";
  const { pathname, search } = splitUrl(request.url);
  if (!isCleanComponent(pathname)) return "malformed_path";
  if (!isCleanComponent(search)) return "malformed_query";
  return null;
}

/** Path and query of a URL without parsing it (parsing is what fails on hostile input). */
function splitUrl(url: string): { pathname: string; search: string } {
  const afterScheme = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "");
  const hash = afterScheme.indexOf("#");
  const noHash = hash < 0 ? afterScheme : afterScheme.slice(0, hash);
  const q = noHash.indexOf("?");
  return q < 0 ? { pathname: noHash, search: "" } : { pathname: noHash.slice(0, q), search: noHash.slice(q + 1) };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The 400 answer in the format of the endpoint the path addresses: markdown for /api/md/* and the
 * llms files, GraphQL's `errors` array for the Admin API, OAuth's JSON error for OAuth endpoints,
 * JSON for other APIs, and an HTML page for pages.
 */
export function edgeErrorResponse(rawPath: string, problem: EdgeProblem): Response {
  const message = MESSAGES[problem];
  const path = splitUrl(rawPath).pathname;
  const headers = { "cache-control": "no-store", "x-content-type-options": "nosniff" };
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 400, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  if (path.startsWith("/api/md/") || path.startsWith("/llms")) {
    const body = `---\ntype: "error"\nstatus: 400\ntitle: "Bad request"\nmessage: ${JSON.stringify(message)}\n---\n\n# Bad request\n\n${message}\n`;
    return new Response(body, { status: 400, headers: { ...headers, "content-type": "text/markdown; charset=utf-8" } });
  }
  if (path.startsWith("/admin/graphql")) return json({ errors: [{ message, extensions: { code: "BAD_REQUEST" } }] });
  if (path.startsWith("/api/oauth/") || path.startsWith("/.well-known/")) return json({ error: "invalid_request", error_description: message });
  if (path.startsWith("/api/") || path.endsWith(".json")) return json({ error: "bad_request", message });
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Bad request · Schoolhouse</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1.25rem;line-height:1.55}</style></head>
<body><main><h1>Bad request</h1><p>${escapeHtml(message)}</p><p><a href="/">Go to the home page</a></p></main></body></html>`;
  return new Response(html, {
    status: 400,
    headers: { ...headers, "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" },
  });
}

/** The guard as one call: a 400 response, or null to let the request through. */
export function guardEdge(request: EdgeRequest): Response | null {
  const problem = edgeProblem(request);
  return problem ? edgeErrorResponse(request.url, problem) : null;
}
