// CORS for the Admin API. API keys travel in a header, never in cookies, so a page on any origin
// may call the API with its own key: Allow-Origin is `*` (no credentials mode). The preflight
// names the request headers the API reads; every response exposes the budget and replay headers
// so browser clients can pace themselves (spec: "exposed to cross-origin browser clients").
import { BUDGET_HEADERS, REFUSAL_HEADERS } from "../rate-limit/wire";

export const ADMIN_CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": [...BUDGET_HEADERS, ...REFUSAL_HEADERS, "API-Version", "Idempotent-Replayed"].join(", "),
};

const PREFLIGHT_HEADERS: Record<string, string> = {
  ...ADMIN_CORS_HEADERS,
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, Accept, X-Service-API-Key, API-Version, Idempotency-Key",
  // Two hours: Chromium's cap; other browsers cap lower and re-ask sooner.
  "access-control-max-age": "7200",
};

/** OPTIONS /admin/graphql: the answer to a CORS preflight (and to a plain OPTIONS). */
export function adminPreflight(): Response {
  return new Response(null, { status: 204, headers: { ...PREFLIGHT_HEADERS, allow: "GET, POST, OPTIONS", "cache-control": "no-store" } });
}

/** Adds the CORS response headers to an Admin API response. */
export function withAdminCors(response: Response): Response {
  for (const [name, value] of Object.entries(ADMIN_CORS_HEADERS)) response.headers.set(name, value);
  return response;
}
