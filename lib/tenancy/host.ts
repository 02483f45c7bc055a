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

// An IPv6 literal: hex groups, colons, optionally a trailing dotted IPv4 (RFC 3986 IP-literal).
const IPV6_LITERAL = /^\[[0-9a-f:]{2,39}(?:\d{1,3}(?:\.\d{1,3}){3})?\]$/;
const PORT = /^:(\d{1,5})$/;

/** Splits `host[:port]`; null when the port is not a number from 1 to 65535. */
function splitAuthority(raw: string): { host: string; port: string | null } | null {
  const close = raw.startsWith("[") ? raw.indexOf("]") : -1;
  const colon = raw.startsWith("[") ? (close < 0 ? -1 : raw.indexOf(":", close)) : raw.lastIndexOf(":");
  if (raw.startsWith("[") && close < 0) return null;
  if (colon < 0) return { host: raw, port: null };
  const port = PORT.exec(raw.slice(colon))?.[1];
  if (!port || Number(port) < 1 || Number(port) > 65535) return null;
  return { host: raw.slice(0, colon), port };
}

/**
 * Whether a Host (or trusted X-Forwarded-Host) value is a well-formed `host[:port]`: a DNS name or
 * IPv4 address (letters, digits, hyphens, dots; at most 253 characters, one trailing dot allowed),
 * or a bracketed IPv6 literal, with an optional port from 1 to 65535. Anything else (`[zzz]`,
 * `localhost:abc`, `a b`, `127.0.0.1:99999`) cannot name this service: the edge guard answers 400
 * before any code builds a URL from it. Pure, so the request context (lib/tenancy) uses the same rule.
 */
export function isValidHost(raw: string): boolean {
  if (raw.length === 0 || raw.length > 260) return false;
  const parts = splitAuthority(raw.toLowerCase());
  if (!parts) return false;
  if (parts.host.startsWith("[")) return IPV6_LITERAL.test(parts.host);
  const name = parts.host.replace(/\.$/, "");
  return name.length <= 253 && HOSTNAME.test(name);
}

/** Host without port, lower-cased; null when it is not a syntactically valid host. */
export function normalizeHost(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const value = raw.trim().toLowerCase();
  if (!isValidHost(value)) return null;
  const { host } = splitAuthority(value)!;
  return host.startsWith("[") ? host : host.replace(/\.$/, "");
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
