import { retryAfterHeaders } from "../db/unavailable";
import { BodyEncodingError, BodyTooLargeError, hasNul, readBodyText, REFUSED_BODY_HEADERS } from "../http/body";
import type { PlainRequest, PlainResponse } from "../http/plain";
import { assertionClientId, readAssertionParams } from "./client-assertion";
import { asOAuthError, InvalidClientError, InvalidRequestError, type OAuthError, PayloadTooLargeError, TemporarilyUnavailableError } from "./errors";
import { requestContext } from "../tenancy/request-context";

// Browser-based clients (SPAs, MCP inspectors) call these endpoints cross-origin. They carry no
// cookies, so any origin may call them; credentials stay in bodies and Authorization headers.
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Authorization, Content-Type, MCP-Protocol-Version",
  "access-control-expose-headers": "WWW-Authenticate",
  "access-control-max-age": "600",
};

export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}

/** Every OAuth JSON answer: no-store unless `cache` says otherwise, and open to any origin. */
export function jsonAnswer(body: unknown, init: { status?: number; headers?: Record<string, string>; cache?: "no-store" | string } = {}): PlainResponse {
  return {
    status: init.status ?? 200,
    body: JSON.stringify(body),
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": init.cache ?? "no-store",
      pragma: "no-cache",
      ...CORS_HEADERS,
      ...init.headers,
    },
  };
}

/** The JSON answer of an OAuth error (a database outage is temporarily_unavailable); anything else is rethrown. */
export function errorAnswer(error: unknown, headers: Record<string, string> = {}): PlainResponse {
  const oauth = asOAuthError(error);
  if (!oauth) throw error;
  const extra = oauth instanceof TemporarilyUnavailableError ? retryAfterHeaders() : oauth instanceof PayloadTooLargeError ? REFUSED_BODY_HEADERS : {};
  return jsonAnswer(oauth.toJSON(), { status: oauth.status, headers: { ...extra, ...headers } });
}

/** Runs an endpoint and maps OAuth errors to their JSON answer; anything else is a real bug. */
export async function handleOAuth(run: () => Promise<PlainResponse>): Promise<PlainResponse> {
  try {
    return await run();
  } catch (error) {
    return errorAnswer(error);
  }
}

/** Every OAuth body (forms, registration JSON, the consent form): 16 KiB is far above any real one. */
export const MAX_OAUTH_BODY_BYTES = 16 * 1024;

/**
 * The body as UTF-8 text within MAX_OAUTH_BODY_BYTES, read while it streams: 413 as soon as it is
 * larger (without reading the rest), 400 when it is not UTF-8. `error` shapes the 400 in the
 * endpoint's own error class (registration uses invalid_client_metadata).
 */
export async function readOAuthBody(request: PlainRequest, error: (message: string) => OAuthError = (m) => new InvalidRequestError(m)): Promise<string> {
  try {
    return await readBodyText(request, MAX_OAUTH_BODY_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new PayloadTooLargeError(err.message);
    if (err instanceof BodyEncodingError) throw error(err.message);
    throw err;
  }
}

/** Refuses parameters holding U+0000 before any of them reaches a query (Postgres text cannot store it). */
export function refuseNul(params: Iterable<[string, string]>): void {
  for (const [key, value] of params) {
    if (hasNul(key) || hasNul(value)) throw new InvalidRequestError(`Parameter ${hasNul(key) ? "names" : key} must not contain the NUL character`);
  }
}

/** An application/x-www-form-urlencoded body, where every parameter appears at most once (RFC 6749 §3.2). */
export async function readForm(request: PlainRequest): Promise<Map<string, string>> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new InvalidRequestError("The request body must be application/x-www-form-urlencoded");
  }
  const params = new URLSearchParams(await readOAuthBody(request));
  refuseNul(params);
  const out = new Map<string, string>();
  for (const [key, value] of params) {
    if (out.has(key)) throw new InvalidRequestError(`Parameter ${key} was given more than once`);
    out.set(key, value);
  }
  return out;
}

/** What a request presents to authenticate its client, and the audiences an assertion may name. */
export interface PresentedClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** private_key_jwt: the signed client assertion (RFC 7523). */
  clientAssertion?: string;
  /** This server as an assertion's aud may name it: the issuer, the token endpoint, the endpoint called. */
  audiences: string[];
}

/**
 * The client's credentials: HTTP Basic (client_secret_basic, RFC 6749 §2.3.1: client_id and secret
 * form-urlencoded, then base64), the body (client_secret_post, or client_id alone for public
 * clients), or a client assertion (private_key_jwt, RFC 7523: client_id from the body or the
 * assertion's iss). Using two methods in one request is refused (§2.3: only one may be used).
 */
export function clientCredentials(request: PlainRequest, form: Map<string, string>): PresentedClientCredentials {
  const issuer = requestContext(request).origin;
  const audiences = [...new Set([issuer, `${issuer}/api/oauth/token`, `${issuer}${new URL(request.url).pathname}`])];
  const header = request.headers.get("authorization") ?? "";
  const assertion = readAssertionParams(form);
  if (assertion !== undefined) {
    if (/^basic\s/i.test(header) || form.has("client_secret")) throw new InvalidRequestError("Use one client authentication method: a client assertion, HTTP Basic or client_secret, not several");
    const named = assertionClientId(assertion);
    const bodyId = form.get("client_id");
    if (bodyId !== undefined && bodyId !== named) throw new InvalidClientError("client_id does not match the client assertion's iss");
    return { clientId: named, clientSecret: undefined, clientAssertion: assertion, audiences };
  }
  if (!/^basic\s/i.test(header)) return { clientId: form.get("client_id"), clientSecret: form.get("client_secret"), audiences };
  if (form.has("client_secret")) throw new InvalidRequestError("Use one client authentication method: HTTP Basic or client_secret in the body, not both");
  let decoded: string;
  try {
    decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  } catch {
    decoded = "";
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new InvalidClientError("Malformed HTTP Basic credentials");
  const decode = (v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, " "));
    } catch {
      throw new InvalidClientError("Malformed HTTP Basic credentials");
    }
  };
  const clientId = decode(decoded.slice(0, colon));
  const bodyId = form.get("client_id");
  if (bodyId !== undefined && bodyId !== clientId) throw new InvalidRequestError("client_id in the body does not match the HTTP Basic credentials");
  return { clientId, clientSecret: decode(decoded.slice(colon + 1)), audiences };
}
