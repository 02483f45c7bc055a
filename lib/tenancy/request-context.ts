import { env } from "../env";
import { matchHost, requestHost, requestScheme, type HostMatch } from "./host";
import { cachedSchool, type School, type SchoolState } from "./resolve-school";

export type { School, SchoolState };

/**
 * Who and where a request is: the one answer every transport uses (storefront pages and markdown,
 * the Admin API, OAuth and OpenID Connect, MCP, member pages, cron). Built once per request by
 * `requestContext`; X-Forwarded-Host/-Proto count only with TRUST_PROXY.
 */
export interface RequestContext {
  /** scheme://host[:port] the client addressed: links, the OAuth issuer, session binding. */
  readonly origin: string;
  readonly scheme: "http" | "https";
  /** What the host names: a school's subdomain, a custom domain, the bare platform, or nothing valid. */
  readonly match: HostMatch;
  /**
   * The school the host names (the bare host: DEFAULT_SCHOOL, else the only school), null when none
   * answers there or it is disabled. Looked up on first call only, through the school cache
   * (lib/tenancy/resolve-school.ts); later calls share that answer. Rejects with
   * DatabaseUnavailableError for a host never resolved before while the database is away.
   */
  school(): Promise<School | null>;
  /** `school()`, saying whether the answer is the cached one served because the database is unavailable. */
  schoolState(): Promise<SchoolState>;
}

// Keyed by the request's Headers object: one context per request however many callers ask.
const contexts = new WeakMap<Headers, RequestContext>();

/** The request's context, built on first call and the same object for every later caller. */
export function requestContext(request: { url?: string; headers: Headers }): RequestContext {
  const known = contexts.get(request.headers);
  if (known) return known;
  const e = env();
  const rules = { platformDomain: e.PLATFORM_DOMAIN, trustProxy: e.TRUST_PROXY };
  const sent = requestHost(request.headers, rules);
  // Without a Host header (only in-process callers and HTTP/1.0), the host of the request's URL
  // makes the origin; the school is looked up from a sent host only.
  const host = sent ?? (request.url ? new URL(request.url).host : null);
  const context = contextOf({ scheme: requestScheme(request.headers, rules), host, schoolHost: sent, rules });
  contexts.set(request.headers, context);
  return context;
}

/**
 * The context of a link made outside any request (the CLI's printed links): the same host rule and
 * the same origin, from an explicit base URL, whose scheme is taken as given (no proxy to trust).
 */
export function baseUrlContext(baseUrl: string): RequestContext {
  const url = new URL(baseUrl);
  const e = env();
  return contextOf({
    scheme: url.protocol === "https:" ? "https" : "http",
    host: url.host,
    schoolHost: url.host,
    rules: { platformDomain: e.PLATFORM_DOMAIN, trustProxy: false },
  });
}

function contextOf(o: { scheme: "http" | "https"; host: string | null; schoolHost: string | null; rules: { platformDomain: string; trustProxy: boolean } }): RequestContext {
  const match = matchHost(o.host, o.rules);
  // A malformed Host is answered 400 at the edge (lib/edge/guard.ts, the same isValidHost rule);
  // should one get this far, no URL is built from it.
  const origin = match.kind === "invalid" ? `${o.scheme}://${o.rules.platformDomain}` : `${o.scheme}://${o.host!.trim().toLowerCase()}`;
  let state: Promise<SchoolState> | undefined;
  const schoolState = () => (state ??= cachedSchool(o.schoolHost, o.schoolHost === o.host ? match : matchHost(o.schoolHost, o.rules)));
  return { origin, scheme: o.scheme, match, schoolState, school: () => schoolState().then((s) => s.school) };
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

// One id per request, kept by its Headers like the context.
const requestIds = new WeakMap<Headers, string>();
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id and client address as the audit log records them (lib/db/audit.ts, AuditActor):
 * the front proxy's X-Request-Id only with TRUST_PROXY (otherwise the client could choose it), else
 * one generated for this request; the address by clientAddress's rule.
 */
export function requestAuditFacts(request: { headers: Headers }): { requestId: string; ip: string | null } {
  let id = requestIds.get(request.headers);
  if (!id) {
    const sent = env().TRUST_PROXY ? request.headers.get("x-request-id")?.trim() : undefined;
    id = sent && REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
    requestIds.set(request.headers, id);
  }
  return { requestId: id, ip: clientAddress(request) };
}
