import { parseApiKey } from "../credentials/api-key";
import type { Credential } from "../credentials/credential";
import { ApiKeyRejectedError, verifyApiKey, type ApiKeyCredential } from "../credentials/verify-api-key";
import { sortRoles } from "../core/roles";
import { parseScope } from "../oauth/scopes";
import { findActiveAccessToken, type AccessTokenMember } from "../oauth/active-access-token";
import { STAFF_ROLES } from "./access";

/** The caller of an /mcp request: a member through an OAuth grant, or a server with an Admin API key. */
export type McpCaller =
  | {
      kind: "member";
      /** Rate limits are per grant (one client and one member). */
      credential: Credential & { kind: "oauth_app" };
      grantId: string;
      /** The OAuth client the member authorized (the audit log's actor). */
      clientId: string;
      user: AccessTokenMember;
      scopes: ReadonlySet<string>;
      roles: string[];
      isStaff: boolean;
    }
  | { kind: "api_key"; credential: ApiKeyCredential };

/** A refused credential: 401 (invalid_token, or none) or 403 (insufficient_scope), with its RFC 6750 challenge. */
export class McpAuthError extends Error {
  override name = "McpAuthError";
  constructor(
    readonly status: 401 | 403,
    readonly error: "invalid_token" | "insufficient_scope" | "invalid_request" | null,
    message: string,
    readonly scope?: string,
  ) {
    super(message);
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Resource identifiers compare as URLs without a trailing slash (RFC 8707 names the same resource either way). */
const sameResource = (a: string, b: string) => a.replace(/\/+$/, "") === b.replace(/\/+$/, "");

/**
 * Who is calling, from `Authorization: Bearer`: an OAuth access token issued on this origin
 * (`issuer`), for this school and for this resource (`audience` = `{origin}/mcp`, RFC 8707), or an
 * Admin API key of this school.
 */
export async function authenticateMcp(options: { headers: Headers; schoolId: string; issuer: string; resource: string; now: Date }): Promise<McpCaller> {
  const { headers, schoolId, issuer, resource, now } = options;
  const header = headers.get("authorization");
  if (!header) throw new McpAuthError(401, null, "Sign in: send Authorization: Bearer <access token> (or an Admin API key).");
  const m = BEARER.exec(header);
  if (!m) throw new McpAuthError(401, "invalid_request", "The Authorization header must be: Bearer <token>.");
  const token = m[1]!;

  if (parseApiKey(token)) {
    try {
      const credential = await verifyApiKey({ key: token, now });
      if (credential.schoolId !== schoolId) throw new McpAuthError(401, "invalid_token", "This API key belongs to another school.");
      return { kind: "api_key", credential };
    } catch (err) {
      if (err instanceof ApiKeyRejectedError) throw new McpAuthError(401, "invalid_token", err.message);
      throw err;
    }
  }

  const row = await findActiveAccessToken({ token, issuer, now });
  if (!row) throw new McpAuthError(401, "invalid_token", "The access token is invalid, expired or revoked.");
  const { grant } = row;
  // A token issued for another school or another resource must not work here (confused deputy).
  if (grant.schoolId !== schoolId) throw new McpAuthError(401, "invalid_token", "The access token was issued for another school.");
  if (row.audience === null || !sameResource(row.audience, resource)) {
    throw new McpAuthError(401, "invalid_token", `The access token was not issued for this resource; request it with resource=${resource}.`);
  }
  // The member's roles in this school came with the token (the grant's school is this school).
  const roles = sortRoles(row.roles);
  return {
    kind: "member",
    credential: { kind: "oauth_app", id: grant.id, schoolId, permissions: [], enforceLimits: true },
    grantId: grant.id,
    clientId: row.clientId,
    user: grant.user,
    scopes: new Set(parseScope(row.scope)),
    roles,
    isStaff: roles.some((r) => (STAFF_ROLES as readonly string[]).includes(r)),
  };
}
