import { env } from "../env";
import { matchHost, requestHost, requestScheme, type HostMatch } from "./host";
import { resolveSchool, type School } from "./resolve-school";

/**
 * Everything a request says about where it was sent, computed once per request and used by proxy,
 * pages, OAuth, storefront and auth alike. X-Forwarded-Host/-Proto count only with TRUST_PROXY.
 */
export interface RequestContext {
  /** scheme://host[:port] the client addressed: links, the OAuth issuer, session binding. */
  origin: string;
  scheme: "http" | "https";
  /** What the host names: a school's subdomain, a custom domain, the bare platform, or nothing valid. */
  match: HostMatch;
}

// Keyed by the request's Headers object: one computation per request however many callers ask.
const contexts = new WeakMap<Headers, RequestContext>();
const schools = new WeakMap<Headers, Promise<School | null>>();

export function requestContext(request: { url?: string; headers: Headers }): RequestContext {
  const known = contexts.get(request.headers);
  if (known) return known;
  const e = env();
  const ctx = { platformDomain: e.PLATFORM_DOMAIN, trustProxy: e.TRUST_PROXY };
  // Without a Host header (only in-process callers), the host of the request's URL.
  const host = requestHost(request.headers, ctx) ?? (request.url ? new URL(request.url).host : null);
  const match = matchHost(host, ctx);
  const scheme = requestScheme(request.headers, ctx);
  // A malformed Host is answered 400 at the edge (lib/edge/guard.ts, the same isValidHost rule);
  // should one get this far, no URL is built from it.
  const origin = match.kind === "invalid" ? `${scheme}://${e.PLATFORM_DOMAIN}` : `${scheme}://${host!.trim().toLowerCase()}`;
  const context: RequestContext = { origin, scheme, match };
  contexts.set(request.headers, context);
  return context;
}

/** The school the request's host names (null when none answers there), looked up once per request. */
export function requestSchool(request: { headers: Headers }): Promise<School | null> {
  let school = schools.get(request.headers);
  if (!school) {
    school = resolveSchool(request.headers);
    schools.set(request.headers, school);
  }
  return school;
}

/**
 * The client's address, for login throttling. Behind a trusted proxy, the first X-Forwarded-For
 * entry; otherwise what `next start` put there (the socket's address when the client sent none).
 * Without a proxy a client can choose this value, so per-address throttling is only as strong as
 * the proxy in front; per-account throttling does not depend on it.
 */
export function clientAddress(request: { headers: Headers }): string | null {
  const forwarded = request.headers.get("x-forwarded-for");
  if (!forwarded) return null;
  const entries = forwarded.split(",").map((s) => s.trim()).filter(Boolean);
  const address = env().TRUST_PROXY ? entries[0] : entries[entries.length - 1];
  return address ? address.slice(0, 64).toLowerCase() : null;
}
