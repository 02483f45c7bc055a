// Which posts the console takes: only from its own pages (CSRF). One rule for the proxy's gate
// (./access.ts, consolePageGate: a clear 403 before Next's own action check, which answers a
// cross-site post with a 500) and for every action (./perform.ts), so they cannot disagree.
// The rule itself is the site's one (lib/http/same-origin.ts).
import { isSameOriginPost } from "../http/same-origin";

export const CROSS_SITE_MESSAGE = "This form did not come from this site. Nothing was changed.";

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
