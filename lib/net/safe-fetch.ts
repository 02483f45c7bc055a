import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isLoopbackAddress, isSpecialUseAddress } from "./address-policy";

// The one way the server calls a URL that someone else chose (Client ID Metadata Documents, webhook
// endpoints): https only, every DNS answer public, the connection pinned to the vetted address (no
// DNS rebinding between check and use), no redirects followed, a hard deadline and a size cap.

export type SafeFetchFailure = "invalid_url" | "scheme" | "credentials" | "unresolvable" | "special_address" | "timeout" | "network";

export class SafeFetchError extends Error {
  override name = "SafeFetchError";
  constructor(
    readonly reason: SafeFetchFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetchPolicy {
  /**
   * http:// to a loopback address (IP literal) is allowed, so test suites never need the internet.
   * Callers take it from an env flag that is refused outside NODE_ENV=test (lib/env.ts), or, for
   * webhooks, from the embedded demo's local-receiver switch (lib/webhooks/endpoint-input.ts).
   */
  allowLoopbackForTests: boolean;
}

export interface SafeRequest {
  url: string | URL;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The response body is read up to this many bytes; the rest is dropped (truncated: true). */
  maxBytes: number;
  policy: SafeFetchPolicy;
  /** Injected in tests to simulate DNS answers. */
  resolve?: typeof dnsLookup;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  truncated: boolean;
}

const bare = (host: string) => host.replace(/^\[|\]$/g, "");

/** Whether url is http:// to a loopback IP literal that the test switch allows. */
export function isLoopbackTestUrl(url: URL, policy: SafeFetchPolicy): boolean {
  const host = bare(url.hostname);
  return policy.allowLoopbackForTests && url.protocol === "http:" && isIP(host) !== 0 && isLoopbackAddress(host);
}

/** The URL checks that need no network: parses, https (or the loopback test switch), no credentials. */
export function checkOutboundUrl(raw: string | URL, policy: SafeFetchPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError("invalid_url", "URL is not valid");
  }
  if (url.protocol !== "https:" && !isLoopbackTestUrl(url, policy)) throw new SafeFetchError("scheme", "URL must use https");
  if (url.username || url.password) throw new SafeFetchError("credentials", "URL must not contain credentials");
  const host = bare(url.hostname);
  if (isIP(host) && isSpecialUseAddress(host) && !(policy.allowLoopbackForTests && isLoopbackAddress(host))) {
    throw new SafeFetchError("special_address", "URL host is a private or special-use address");
  }
  return url;
}

/** DNS answers for a host, refusing special-use addresses (all of them must be public). */
export async function resolvePublic(host: string, policy: SafeFetchPolicy, resolve: typeof dnsLookup = dnsLookup): Promise<{ address: string; family: number }> {
  const name = bare(host);
  let answers: { address: string; family: number }[];
  try {
    answers = isIP(name) ? [{ address: name, family: isIP(name) }] : await resolve(name, { all: true, verbatim: true });
  } catch {
    throw new SafeFetchError("unresolvable", "host does not resolve");
  }
  if (!answers.length) throw new SafeFetchError("unresolvable", "host does not resolve");
  for (const a of answers) {
    const loopbackOk = policy.allowLoopbackForTests && isLoopbackAddress(a.address);
    if (isSpecialUseAddress(a.address) && !loopbackOk) {
      throw new SafeFetchError("special_address", "host resolves to a private or special-use address");
    }
  }
  return answers[0]!;
}

/**
 * One bounded request. Redirects are returned as they are (status 3xx), never followed; the caller
 * decides what a redirect means. Throws SafeFetchError for refused URLs/addresses, time-outs and
 * network failures.
 */
export async function safeRequest(request: SafeRequest): Promise<SafeResponse> {
  const url = checkOutboundUrl(request.url, request.policy);
  const pinned = await resolvePublic(url.hostname, request.policy, request.resolve);
  const lookup: LookupFunction = (_host, opts, cb) => {
    if (opts && (opts as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const seconds = Math.round(request.timeoutMs / 1000);
  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      fn();
    };
    const req = send(
      url,
      { method: request.method ?? "GET", lookup, headers: request.headers, timeout: request.timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const done = () =>
          finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), truncated }));
        res.on("data", (chunk: Buffer) => {
          if (truncated) return;
          const room = request.maxBytes - size;
          if (chunk.length > room) {
            chunks.push(chunk.subarray(0, room));
            truncated = true;
            done();
            req.destroy();
            return;
          }
          size += chunk.length;
          chunks.push(chunk);
        });
        res.on("end", done);
        res.on("error", () => finish(() => reject(new SafeFetchError("network", "response could not be read"))));
      },
    );
    // A hard deadline for the whole exchange, not only for idle sockets.
    const deadline = setTimeout(() => {
      finish(() => reject(new SafeFetchError("timeout", `no complete answer within ${seconds} seconds`)));
      req.destroy();
    }, request.timeoutMs);
    req.on("timeout", () => {
      finish(() => reject(new SafeFetchError("timeout", `no complete answer within ${seconds} seconds`)));
      req.destroy();
    });
    req.on("error", (err: NodeJS.ErrnoException) =>
      finish(() => reject(new SafeFetchError("network", err.code ? `connection failed (${err.code})` : "connection failed"))),
    );
    req.end(request.body);
  });
}
