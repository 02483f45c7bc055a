import { randomBytes } from "node:crypto";
import type { Db } from "../../db/client";
import { findSchoolByRef } from "../../schools/find-school";
import { generateClientSecret, hashClientSecret } from "../client-secret";
import { isAcceptableRedirectUri } from "../redirect-uri";
import { formatScope, parseScope, unknownScopes, SUPPORTED_SCOPES } from "../scopes";
import { OAuthClientCommandError } from "./errors";

export interface CreateOAuthClientOptions {
  db: Pick<Db, "school" | "oAuthClient">;
  /** School id or subdomain: the client is usable with this school only. */
  school: string;
  name: string;
  redirectUris: string[];
  /** Space- or comma-separated scopes the client may be granted. */
  scope: string;
  /** Confidential clients get a secret (client_secret_basic or _post); public ones use PKCE alone. */
  confidential: boolean;
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
  const secret = options.confidential ? generateClientSecret() : null;
  const row = await options.db.oAuthClient.create({
    data: {
      clientId: `oc_${randomBytes(12).toString("hex")}`,
      name,
      redirectUris,
      scope,
      schoolId: school.id,
      tokenEndpointAuthMethod: options.confidential ? "client_secret_basic" : "none",
      clientSecretHash: secret ? hashClientSecret(secret) : null,
    },
  });
  return { client: row, school, secret };
}
