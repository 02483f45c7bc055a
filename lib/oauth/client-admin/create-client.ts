import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { findSchoolByRef } from "../../schools/find-school";
import { generateClientSecret, hashClientSecret } from "../client-secret";
import { env } from "../../env";
import { checkJwks } from "../client-jwks";
import { isAcceptableRedirectUri } from "../redirect-uri";
import { checkOutboundUrl, SafeFetchError } from "../../net/safe-fetch";
import type { Prisma } from "../../db/generated/client";
import { DEFAULT_SIGNING_ALG, isSigningAlg, SIGNING_ALGS } from "../../oidc/key-store";
import { formatScope, parseScope, unknownScopes, SUPPORTED_SCOPES } from "../scopes";
import { OAuthClientCommandError } from "./errors";
import { recordAudit, type AuditActor } from "../../db/audit";

export interface CreateOAuthClientOptions {
  db: Pick<Db, "school" | "$transaction">;
  /** Who asks: written to the audit log with the client (lib/db/audit.ts); never the secret. */
  actor: AuditActor;
  now: Date;
  /** School id or subdomain: the client is usable with this school only. */
  school: string;
  name: string;
  redirectUris: string[];
  /** Space- or comma-separated scopes the client may be granted. */
  scope: string;
  /** Confidential clients get a secret (client_secret_basic or _post); public ones use PKCE alone. */
  confidential: boolean;
  /**
   * private_key_jwt instead of a secret (issue 25): the client's public keys as a JWK Set, or the
   * https URL that serves them. A confidential client with one of these is issued no secret.
   */
  jwks?: unknown;
  jwksUri?: string;
  /** RP-Initiated Logout: where the member may be sent after signing out (exact match). */
  postLogoutRedirectUris?: string[];
  /** Back-Channel Logout: the https URL logout tokens are posted to. */
  backchannelLogoutUri?: string;
  /** id_token_signed_response_alg: RS256 (the default) or ES256. */
  idTokenSignedResponseAlg?: string;
}

/** An https URL the server will call (jwks_uri, backchannel_logout_uri): checked by the safe fetch's own rules. */
function checkOutbound(flag: string, uri: string, allowLoopbackForTests: boolean): string {
  if (uri.length > 2048) throw new OAuthClientCommandError(`${flag} is longer than 2048 characters`);
  try {
    return checkOutboundUrl(uri, { allowLoopbackForTests }).href;
  } catch (err) {
    if (err instanceof SafeFetchError) throw new OAuthClientCommandError(`${flag}: ${err.message}`);
    throw err;
  }
}

export const MAX_REDIRECT_URIS = 20;

/** The redirect URIs a client may register: the rules CIMD documents follow (https, or http on loopback). */
export function checkRedirectUris(uris: string[]): string[] {
  if (!uris.length) throw new OAuthClientCommandError("at least one --redirect-uri is required");
  if (uris.length > MAX_REDIRECT_URIS) throw new OAuthClientCommandError(`at most ${MAX_REDIRECT_URIS} redirect URIs`);
  for (const uri of uris) {
    if (uri.length > 2048 || !isAcceptableRedirectUri(uri)) {
      throw new OAuthClientCommandError(`redirect URI ${JSON.stringify(uri.slice(0, 200))} must be an https URL, or http on a loopback address, without a fragment or credentials`);
    }
  }
  return [...new Set(uris)];
}

export function checkScope(raw: string): string {
  const scopes = parseScope(raw.replace(/,/g, " "));
  if (!scopes.length) throw new OAuthClientCommandError(`--scope needs at least one of: ${SUPPORTED_SCOPES.join(" ")}`);
  const unknown = unknownScopes(scopes);
  if (unknown.length) throw new OAuthClientCommandError(`unknown scope ${unknown.join(", ")}; choose from ${SUPPORTED_SCOPES.join(" ")}`);
  return formatScope(scopes);
}

/**
 * Creates an OAuth client for one school. A confidential client's secret is generated here (never
 * chosen by anyone), returned once, and only its salted hash is stored.
 */
export async function createOAuthClient(options: CreateOAuthClientOptions) {
  const name = options.name.trim();
  if (!name || name.length > 200) throw new OAuthClientCommandError("--name must be 1 to 200 characters");
  const redirectUris = checkRedirectUris(options.redirectUris);
  const scope = checkScope(options.scope);
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  // Test suites only (env validation refuses the switches elsewhere): receivers on loopback.
  const loopback = env().OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS || env().WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS;
  if (options.jwks !== undefined && options.jwksUri !== undefined) throw new OAuthClientCommandError("give --jwks-file or --jwks-uri, not both");
  let jwks: Prisma.InputJsonValue | undefined;
  if (options.jwks !== undefined) {
    try {
      jwks = checkJwks(options.jwks) as unknown as Prisma.InputJsonValue;
    } catch (err) {
      throw new OAuthClientCommandError(err instanceof Error ? err.message : String(err));
    }
  }
  const jwksUri = options.jwksUri !== undefined ? checkOutbound("--jwks-uri", options.jwksUri, loopback) : null;
  const keyAuth = jwks !== undefined || jwksUri !== null;
  if (keyAuth && !options.confidential) throw new OAuthClientCommandError("a public client cannot use private_key_jwt");
  const postLogoutRedirectUris = options.postLogoutRedirectUris?.length ? checkRedirectUris(options.postLogoutRedirectUris) : [];
  const backchannelLogoutUri = options.backchannelLogoutUri !== undefined ? checkOutbound("--backchannel-logout-uri", options.backchannelLogoutUri, loopback) : null;
  const idTokenSignedResponseAlg = options.idTokenSignedResponseAlg ?? DEFAULT_SIGNING_ALG;
  if (!isSigningAlg(idTokenSignedResponseAlg)) throw new OAuthClientCommandError(`--id-token-alg must be one of ${SIGNING_ALGS.join(", ")}`);
  const secret = options.confidential && !keyAuth ? generateClientSecret() : null;
  const row = await options.db.$transaction(async (tx) => {
    const created = await tx.oAuthClient.create({
    data: {
      clientId: `oc_${randomBytes(12).toString("hex")}`,
      name,
      redirectUris,
      scope,
      schoolId: school.id,
      tokenEndpointAuthMethod: keyAuth ? "private_key_jwt" : options.confidential ? "client_secret_basic" : "none",
      clientSecretHash: secret ? hashClientSecret(secret) : null,
      jwks,
      jwksUri,
      postLogoutRedirectUris,
      backchannelLogoutUri,
      idTokenSignedResponseAlg,
    },
    });
    const summary = { clientId: created.clientId, name, redirectUris, scope, authMethod: created.tokenEndpointAuthMethod };
    await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: school.id, action: "oauth_client.create", target: { type: "oauth_client", id: created.clientId }, summary } });
    return created;
  });
  return { client: row, school, secret };
}
