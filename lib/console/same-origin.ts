// Which posts the console takes: only from its own pages (CSRF). One rule for the proxy's gate
// (./access.ts, consolePageGate: a clear 403 before Next's own action check, which answers a
// cross-site post with a 500) and for every action (./perform.ts), so they cannot disagree.
// No imports: access.ts and form-guard.ts both use it.

export const CROSS_SITE_MESSAGE = "This form did not come from this site. Nothing was changed.";

/**
 * Whether a post comes from a page of `origin`, by the checks OWASP lists (the checkout forms' rule,
 * lib/billing/checkout-requests.ts): Sec-Fetch-Site when the browser sends it (every current one;
 * a page cannot set it) must be same-origin, with an Origin that is absent, "null" (a page under a
 * no-referrer policy, a browser set to send no referrers) or this origin; without Sec-Fetch-Site,
 * the Origin must be this origin. A script outside a browser can send anything, but holds no
 * member's session cookie.
 */
export function isSameOriginPost(headers: Headers, origin: string): boolean {
  const sent = headers.get("origin");
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" && (sent === null || sent === "null" || sent === origin);
  return sent === origin;
}

/**
 * A same-origin post whose Origin is "null": the headers to pass on without it, else null. Next's
 * server-action check compares Origin with Host and knows nothing of Sec-Fetch-Site, so it would
 * refuse (500) a post this rule accepts; without an Origin it lets it through to the action, which
 * checks this rule again.
 */
export function withoutNullOrigin(headers: Headers, origin: string): Headers | null {
  if (headers.get("origin") !== "null" || !isSameOriginPost(headers, origin)) return null;
  const passed = new Headers(headers);
  passed.delete("origin");
  return passed;
}
