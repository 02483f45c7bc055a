// Process cache of registered OAuth client rows, so authenticating a client on the token endpoint
// (every refresh, every code exchange) costs no query per request (docs/benchmarks.md, token-refresh:
// the client lookup through Prisma was a quarter of a refresh's CPU).
//
// Exact invalidation and what is (never) cached: lib/db/credential-cache.ts. Statement-level
// triggers bump CredentialVersion on any update, delete or truncation of OAuthClient, whoever writes
// (migration 15c_oauth_client_version); the row and the version are read by one statement (one
// snapshot). A client whose secret was rotated or that was revoked anywhere is refused within
// STOREFRONT_REVALIDATE_MS on every instance, and at once on the instance that changed it (the
// client commands call forgetOAuthClients()). Every request still compares the presented secret
// with the stored hashes in constant time and checks revocation and the overlap's end.
import { createCredentialCache, toVersion } from "../db/credential-cache";
import { rawQuery, rowDate } from "../db/raw";

/** The OAuthClient columns the endpoints read. */
export interface OAuthClientRow {
  clientId: string;
  name: string;
  clientSecretHash: string | null;
  previousClientSecretHash: string | null;
  previousClientSecretExpiresAt: Date | null;
  revokedAt: Date | null;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  tokenEndpointAuthMethod: string;
  scope: string;
  schoolId: string | null;
  jwks: unknown;
  jwksUri: string | null;
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  idTokenSignedResponseAlg: string;
}

/** Clients kept per process; least recently used beyond it are dropped. */
export const OAUTH_CLIENT_CACHE_MAX_ENTRIES = 10_000;

// The row and the version it belongs to, in one statement (one snapshot).
const LOAD_CLIENT = `
SELECT c."clientId", c."name", c."clientSecretHash", c."previousClientSecretHash", c."previousClientSecretExpiresAt",
       c."revokedAt", c."redirectUris", c."grantTypes", c."responseTypes", c."tokenEndpointAuthMethod", c."scope",
       c."schoolId"::text AS "schoolId", c."jwks", c."jwksUri", c."postLogoutRedirectUris", c."backchannelLogoutUri",
       c."idTokenSignedResponseAlg",
       (SELECT "version"::text FROM "CredentialVersion" WHERE "id" = 1) AS "credentialVersion"
  FROM "OAuthClient" c
 WHERE c."clientId" = $1`;

async function loadClient(clientId: string): Promise<{ row: OAuthClientRow | null; version: bigint | null }> {
  const [r] = await rawQuery<Record<string, unknown>>(LOAD_CLIENT, [clientId], { name: "load-oauth-client", readOnly: true });
  if (!r) return { row: null, version: null };
  return {
    version: toVersion(r.credentialVersion),
    row: {
      clientId: r.clientId as string,
      name: r.name as string,
      clientSecretHash: (r.clientSecretHash as string | null) ?? null,
      previousClientSecretHash: (r.previousClientSecretHash as string | null) ?? null,
      previousClientSecretExpiresAt: rowDate(r.previousClientSecretExpiresAt),
      revokedAt: rowDate(r.revokedAt),
      redirectUris: r.redirectUris as string[],
      grantTypes: r.grantTypes as string[],
      responseTypes: r.responseTypes as string[],
      tokenEndpointAuthMethod: r.tokenEndpointAuthMethod as string,
      scope: r.scope as string,
      schoolId: (r.schoolId as string | null) ?? null,
      jwks: typeof r.jwks === "string" ? (JSON.parse(r.jwks) as unknown) : (r.jwks ?? null),
      jwksUri: (r.jwksUri as string | null) ?? null,
      postLogoutRedirectUris: (r.postLogoutRedirectUris as string[] | null) ?? [],
      backchannelLogoutUri: (r.backchannelLogoutUri as string | null) ?? null,
      idTokenSignedResponseAlg: (r.idTokenSignedResponseAlg as string | null) ?? "RS256",
    },
  };
}

const cache = createCredentialCache<OAuthClientRow>({ name: "oauth-clients", maxEntries: OAUTH_CLIENT_CACHE_MAX_ENTRIES, load: loadClient });

/** The registered client row with this client_id (from the cache when its version is current), or null. */
export const findClientRow = (clientId: string): Promise<OAuthClientRow | null> => cache.find(clientId);

/**
 * Drops every cached client of this process and distrusts version reads already made: the next
 * lookup reads the version and the row again. Called after this process changed a client (secret
 * rotated, client revoked), so the change holds on this instance at once (other instances: within
 * the bound).
 */
export const forgetOAuthClients = (): void => cache.forget();

export const oauthClientCacheStats = (): { entries: number } => cache.stats();
