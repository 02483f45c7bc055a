// Pure host parsing; see docs/decisions.md "Tenancy" for the rules.

export type HostMatch =
  | { kind: "subdomain"; subdomain: string }
  | { kind: "custom-domain"; domain: string }
  | { kind: "bare" }
  | { kind: "invalid" };

export interface HostContext {
  platformDomain: string;
  trustProxy: boolean;
}

const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"]);

/** The host a request was addressed to: X-Forwarded-Host only behind a trusted proxy. */
export function requestHost(headers: Headers, ctx: Pick<HostContext, "trustProxy">): string | null {
  const forwarded = ctx.trustProxy ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || headers.get("host");
}

/** Host without port, lower-cased; null when it is not a syntactically valid host. */
export function normalizeHost(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let host = raw.trim().toLowerCase();
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end > 0 ? host.slice(0, end + 1) : null;
  }
  host = host.replace(/:\d+$/, "").replace(/\.$/, "");
  return HOSTNAME.test(host) && host.length <= 253 ? host : null;
}

export function matchHost(rawHost: string | null | undefined, ctx: HostContext): HostMatch {
  const host = normalizeHost(rawHost);
  if (!host) return { kind: "invalid" };
  const platform = ctx.platformDomain.toLowerCase();
  if (host === platform || host === `www.${platform}` || LOOPBACK.has(host)) return { kind: "bare" };
  if (host.endsWith(`.${platform}`)) {
    const sub = host.slice(0, -(platform.length + 1));
    // Only one label: a.b.<platform> is not a school.
    return sub.includes(".") ? { kind: "invalid" } : { kind: "subdomain", subdomain: sub };
  }
  return { kind: "custom-domain", domain: host };
}

/**
 * The scheme the client used. Behind a trusted proxy, X-Forwarded-Proto; otherwise http, because
 * `next start` serves plain HTTP: the scheme of Next.js's request.url follows a client-sent
 * X-Forwarded-Proto and must not be believed.
 */
export function requestScheme(headers: Headers, ctx: Pick<HostContext, "trustProxy">): "http" | "https" {
  if (!ctx.trustProxy) return "http";
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return proto === "https" ? "https" : "http";
}

/** Origin (scheme://host[:port]) the client used: forwarded headers only behind a trusted proxy. */
export function requestOrigin(url: string, headers: Headers, ctx: Pick<HostContext, "trustProxy">): string {
  const host = requestHost(headers, ctx) ?? new URL(url).host;
  return `${requestScheme(headers, ctx)}://${host.trim().toLowerCase()}`;
}
