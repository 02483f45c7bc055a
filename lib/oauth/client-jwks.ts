import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { now } from "../clock";
import { env } from "../env";
import { safeRequest, SafeFetchError } from "../net/safe-fetch";
import { BoundedTtlCache } from "./cimd-cache";
import { InvalidClientError } from "./errors";

// The public keys a private_key_jwt client signs its assertions with: a JWK Set registered with the
// client, or one its jwks_uri serves. The URI is fetched through the one SSRF-safe request
// (lib/net/safe-fetch.ts: https, public addresses only, no redirects, bounded), never by jose's
// own fetch, and kept a few minutes; an assertion naming a kid the cached set lacks refetches once
// (the client rotated its key), at most once a minute per client.
export const JWKS_MAX_BYTES = 64 * 1024;
export const JWKS_TIMEOUT_MS = 3_000;
export const JWKS_TTL_MS = 5 * 60_000;
export const JWKS_REFETCH_COOLDOWN_MS = 60_000;
const cache = new BoundedTtlCache<{ set: JSONWebKeySet; fetchedAt: number }>(1_000);

export function clearClientJwksCache(): void {
  cache.clear();
}

/** A JWK Set as clients register it: an object with a non-empty keys array, public keys only. */
export function checkJwks(value: unknown): JSONWebKeySet {
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!value || typeof value !== "object" || !Array.isArray(keys) || keys.length === 0 || keys.length > 20) {
    throw new InvalidClientError("The client's JWK Set must be an object with 1 to 20 keys");
  }
  for (const k of keys) {
    if (!k || typeof k !== "object" || typeof (k as { kty?: unknown }).kty !== "string") throw new InvalidClientError("Every key of the client's JWK Set needs a kty");
    // A private part registered by mistake is refused: the server must never hold a client's private key.
    if (["d", "p", "q", "dp", "dq", "qi", "k"].some((f) => Object.hasOwn(k, f))) throw new InvalidClientError("The client's JWK Set must hold public keys only");
  }
  return value as JSONWebKeySet;
}

async function download(uri: string): Promise<JSONWebKeySet> {
  let res;
  try {
    res = await safeRequest({
      url: uri,
      method: "GET",
      headers: { accept: "application/json, application/jwk-set+json", "user-agent": "Schoolhouse-OAuth/1 (client jwks fetch)" },
      timeoutMs: JWKS_TIMEOUT_MS,
      maxBytes: JWKS_MAX_BYTES,
      policy: { allowLoopbackForTests: env().OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS },
    });
  } catch (err) {
    if (err instanceof SafeFetchError) throw new InvalidClientError(`The client's jwks_uri could not be fetched: ${err.message}`);
    throw err;
  }
  if (res.status !== 200) throw new InvalidClientError(`The client's jwks_uri answered HTTP ${res.status}`);
  if (res.truncated) throw new InvalidClientError("The client's jwks_uri document is larger than 64 KB");
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new InvalidClientError("The client's jwks_uri document is not valid JSON");
  }
  return checkJwks(json);
}

/**
 * The key resolver for one client's assertions. `kid` is the assertion's: when the cached set has no
 * key of that id, the URI is fetched again (once a minute at most) before the assertion is refused.
 */
export async function clientKeys(client: { clientId: string; jwks: unknown; jwksUri: string | null }, kid: string | undefined): Promise<JWTVerifyGetKey> {
  if (client.jwks) return createLocalJWKSet(checkJwks(client.jwks));
  if (!client.jwksUri) throw new InvalidClientError("The client has no registered keys (jwks or jwks_uri)");
  const at = now().getTime();
  const key = `${client.clientId} ${client.jwksUri}`;
  let entry = cache.get(key, at);
  const knows = (set: JSONWebKeySet) => kid === undefined || set.keys.some((k) => k.kid === kid);
  if (!entry || (!knows(entry.set) && at - entry.fetchedAt >= JWKS_REFETCH_COOLDOWN_MS)) {
    entry = { set: await download(client.jwksUri), fetchedAt: at };
    cache.set(key, entry, at + JWKS_TTL_MS);
  }
  return createLocalJWKSet(entry.set);
}
