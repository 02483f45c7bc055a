import type { lookup as dnsLookup } from "node:dns/promises";
import type { IncomingHttpHeaders } from "node:http";
import { z } from "zod";
import { now } from "../clock";
import { DEFAULT_SIGNING_ALG, SIGNING_ALGS, type SigningAlg } from "../oidc/key-store";
import { isLoopbackTestUrl, safeRequest, SafeFetchError } from "../net/safe-fetch";
import { BoundedTtlCache } from "./cimd-cache";
import { InvalidClientError } from "./errors";
import { isAcceptableRedirectUri } from "./redirect-uri";

// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client_id that is
// an https URL names a JSON document describing the client. Fetching it is a server-side request to
// an address an attacker chooses, so every step is bounded.
export const CIMD_MAX_BYTES = 5 * 1024;
export const CIMD_TIMEOUT_MS = 3_000;
/** Without caching headers a document is kept this long; headers can only shorten it, up to a cap. */
export const CIMD_DEFAULT_TTL_SECONDS = 300;
export const CIMD_MAX_TTL_SECONDS = 24 * 60 * 60;
/**
 * A document that failed (unreachable, HTTP error, invalid) is not fetched again for this long: long
 * enough that a burst of authorize requests naming it costs its host one request, short enough that
 * a fixed document works again within half a minute.
 */
export const CIMD_FAILURE_TTL_SECONDS = 30;
/** Documents and failures held at most (least recently used dropped first). */
export const CIMD_CACHE_LIMIT = 1_000;

export class ClientMetadataError extends InvalidClientError {}

export interface CimdPolicy {
  /** Lower-case host names, or "*" for any public host. */
  allowedHosts: string[];
  /** Tests only (refused by env validation elsewhere): http:// on a loopback address. */
  allowLoopbackForTests: boolean;
}

export interface ClientMetadata {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  scope: string | null;
  logoUri: string | null;
  clientUri: string | null;
  /** RP-Initiated Logout targets the document registers (same rules as redirect_uris). */
  postLogoutRedirectUris: string[];
  /** id_token_signed_response_alg (RS256 unless the document asks for ES256). */
  idTokenSignedResponseAlg: SigningAlg;
}

const documentSchema = z
  .object({
    client_id: z.string(),
    client_name: z.string().trim().min(1).max(200).optional(),
    // Only https, or http on a loopback address (RFC 8252 §7.3): never javascript:, data: or other
    // schemes a browser would run or render instead of delivering a code.
    redirect_uris: z.array(z.string().url().refine(isAcceptableRedirectUri, "redirect_uris must be https URLs or http on a loopback address")).min(1).max(20),
    grant_types: z.array(z.enum(["authorization_code", "refresh_token"])).optional(),
    response_types: z.array(z.literal("code")).optional(),
    post_logout_redirect_uris: z.array(z.string().url().refine(isAcceptableRedirectUri, "post_logout_redirect_uris must be https URLs or http on a loopback address")).max(20).optional(),
    token_endpoint_auth_method: z.literal("none").optional(),
    id_token_signed_response_alg: z.enum(SIGNING_ALGS, { message: `must be one of ${SIGNING_ALGS.join(", ")}` }).optional(),
    scope: z.string().max(1000).optional(),
    logo_uri: z.string().url().optional(),
    client_uri: z.string().url().optional(),
    client_secret: z.undefined({ message: "must not contain a client_secret" }).optional(),
    client_secret_expires_at: z.undefined().optional(),
  })
  .passthrough();

type Outcome = { ok: true; metadata: ClientMetadata } | { ok: false; message: string };
const cache = new BoundedTtlCache<Outcome>(CIMD_CACHE_LIMIT);
/** Fetches under way, by client_id: identical concurrent requests share one (single flight). */
const inFlight = new Map<string, Promise<Outcome>>();

export function clearCimdCache(): void {
  cache.clear();
}

/** Entries held (documents and failures); for tests of the bound. */
export function cimdCacheSize(): number {
  return cache.size;
}

/** Is this client_id a metadata document URL (as opposed to a registered client's id)? */
export function isMetadataDocumentClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/** Checks the URL itself: https (or loopback http in tests), allowlisted host, no credentials or fragment. */
export function checkClientIdUrl(clientId: string, policy: CimdPolicy): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new ClientMetadataError("client_id is not a valid URL");
  }
  if (url.href !== clientId && url.href !== `${clientId}/`) throw new ClientMetadataError("client_id URL must be in normalized form");
  if (url.username || url.password || url.hash) throw new ClientMetadataError("client_id URL must not contain credentials or a fragment");
  if (url.pathname === "/" ) throw new ClientMetadataError("client_id URL must have a path");
  const host = url.hostname.toLowerCase();
  const loopbackTest = isLoopbackTestUrl(url, policy);
  if (url.protocol !== "https:" && !loopbackTest) throw new ClientMetadataError("client_id URL must use https");
  const allowed = policy.allowedHosts.includes("*") ? !loopbackTest || policy.allowedHosts.includes(host) : policy.allowedHosts.includes(host);
  if (!allowed) throw new ClientMetadataError(`Client ID Metadata Documents from ${host} are not accepted by this server`);
  return url;
}

/**
 * Seconds a document stays fresh (RFC 9111 §4.2.1, as a shared cache: this server keeps one copy for
 * every member): no-store, no-cache and private are not kept; s-maxage, then max-age, then Expires,
 * less the Age the document already has; without any of them the default; never above the cap.
 */
export function ttlFromHeaders(headers: IncomingHttpHeaders, nowMs: number): number {
  const cc = String(headers["cache-control"] ?? "").toLowerCase();
  if (/(^|,)\s*(no-store|no-cache|private)\b/.test(cc)) return 0;
  const directive = (name: string) => {
    const m = new RegExp(`(?:^|,)\\s*${name}\\s*=\\s*"?(\\d+)`).exec(cc);
    return m ? Number(m[1]) : null;
  };
  const age = Number(/^\d+$/.test(String(headers.age ?? "").trim()) ? headers.age : 0);
  const lifetime = directive("s-maxage") ?? directive("max-age");
  let ttl: number;
  if (lifetime !== null) ttl = lifetime - age;
  else {
    const expires = headers.expires ? Date.parse(String(headers.expires)) : NaN;
    ttl = Number.isNaN(expires) ? CIMD_DEFAULT_TTL_SECONDS : Math.floor((expires - nowMs) / 1000);
  }
  return Math.max(0, Math.min(ttl, CIMD_MAX_TTL_SECONDS));
}

const FETCH_MESSAGES: Record<SafeFetchError["reason"], string> = {
  invalid_url: "client_id is not a valid URL",
  scheme: "client_id URL must use https",
  credentials: "client_id URL must not contain credentials or a fragment",
  unresolvable: "client_id host does not resolve",
  special_address: "client_id host resolves to a private or special-use address",
  timeout: "client_id document took longer than 3 seconds",
  network: "client_id document could not be fetched",
};

/** The document, through the shared SSRF-safe fetch (lib/net/safe-fetch.ts), as a ClientMetadataError on any failure. */
async function download(url: URL, policy: CimdPolicy, resolve: typeof dnsLookup | undefined): Promise<{ body: string; ttl: number }> {
  const started = now().getTime();
  let res;
  try {
    res = await safeRequest({
      url,
      method: "GET",
      headers: { accept: "application/json", "user-agent": "Schoolhouse-OAuth/1 (client metadata fetch)" },
      timeoutMs: CIMD_TIMEOUT_MS,
      maxBytes: CIMD_MAX_BYTES,
      policy,
      resolve,
    });
  } catch (err) {
    if (err instanceof SafeFetchError) throw new ClientMetadataError(FETCH_MESSAGES[err.reason]);
    throw err;
  }
  if (res.status !== 200) {
    throw new ClientMetadataError(res.status >= 300 && res.status < 400 ? "client_id document redirects; redirects are not followed" : `client_id document answered HTTP ${res.status}`);
  }
  const type = String(res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) throw new ClientMetadataError("client_id document is not JSON");
  if (res.truncated || Number(res.headers["content-length"] ?? 0) > CIMD_MAX_BYTES) throw new ClientMetadataError("client_id document is larger than 5 KB");
  return { body: res.body, ttl: ttlFromHeaders(res.headers, started) };
}

export function parseClientMetadata(clientId: string, body: string): ClientMetadata {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ClientMetadataError("client_id document is not valid JSON");
  }
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ClientMetadataError(`client_id document is invalid: ${issue.path.join(".") || "document"} ${issue.message}`);
  }
  const doc = parsed.data;
  if (doc.client_id !== clientId) throw new ClientMetadataError("client_id document's client_id does not equal its URL");
  return {
    clientId,
    clientName: doc.client_name ?? new URL(clientId).hostname,
    redirectUris: doc.redirect_uris,
    grantTypes: doc.grant_types ?? ["authorization_code", "refresh_token"],
    responseTypes: doc.response_types ?? ["code"],
    scope: doc.scope ?? null,
    logoUri: doc.logo_uri ?? null,
    clientUri: doc.client_uri ?? null,
    postLogoutRedirectUris: doc.post_logout_redirect_uris ?? [],
    idTokenSignedResponseAlg: doc.id_token_signed_response_alg ?? DEFAULT_SIGNING_ALG,
  };
}

export interface FetchOptions {
  clientId: string;
  policy: CimdPolicy;
  /** Injected in tests to simulate DNS answers. */
  resolve?: typeof dnsLookup;
}

/**
 * The validated metadata of a CIMD client, from cache or a bounded, SSRF-safe fetch. Documents are
 * kept as their HTTP caching headers say (within CIMD_MAX_TTL_SECONDS), failures for
 * CIMD_FAILURE_TTL_SECONDS, and concurrent requests for one client_id share a single fetch. The
 * client_id URL itself (allowlist, scheme) is checked on every call, so a policy change applies at once.
 */
export async function fetchClientMetadata(options: FetchOptions): Promise<ClientMetadata> {
  const { clientId, policy } = options;
  const url = checkClientIdUrl(clientId, policy);
  const outcome = cache.get(clientId, now().getTime()) ?? (await sharedFetch(clientId, () => fetchOutcome(url, clientId, options)));
  if (!outcome.ok) throw new ClientMetadataError(outcome.message);
  return outcome.metadata;
}

function sharedFetch(clientId: string, fetchOnce: () => Promise<Outcome>): Promise<Outcome> {
  let pending = inFlight.get(clientId);
  if (!pending) {
    pending = fetchOnce().finally(() => inFlight.delete(clientId));
    inFlight.set(clientId, pending);
  }
  return pending;
}

/** One fetch, its outcome cached: a document for its HTTP lifetime, a failure briefly. */
async function fetchOutcome(url: URL, clientId: string, options: FetchOptions): Promise<Outcome> {
  let outcome: Outcome;
  let ttl: number;
  try {
    const downloaded = await download(url, options.policy, options.resolve);
    outcome = { ok: true, metadata: parseClientMetadata(clientId, downloaded.body) };
    ttl = downloaded.ttl;
  } catch (err) {
    if (!(err instanceof ClientMetadataError)) throw err;
    outcome = { ok: false, message: err.message };
    ttl = CIMD_FAILURE_TTL_SECONDS;
  }
  if (ttl > 0) cache.set(clientId, outcome, now().getTime() + ttl * 1000);
  return outcome;
}
