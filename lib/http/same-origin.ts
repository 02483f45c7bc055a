// Which form posts come from this site's own pages (CSRF), by the checks OWASP lists: one rule for
// every HTML form the service takes (the storefront's checkout, the test provider's page, the staff
// console's gate and actions), so no two doors disagree.

/**
 * Whether a post comes from a page of `origin`: Sec-Fetch-Site when the browser sends it (every
 * current one; a page cannot set it) must be same-origin, with an Origin that is absent, "null" (a
 * page under a no-referrer policy, a browser set to send no referrers) or this origin; without
 * Sec-Fetch-Site, the Origin must be this origin. A script outside a browser can send anything, but
 * holds no member's session cookie.
 */
export function isSameOriginPost(headers: Headers, origin: string): boolean {
  const sent = headers.get("origin");
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" && (sent === null || sent === "null" || sent === origin);
  return sent === origin;
}
