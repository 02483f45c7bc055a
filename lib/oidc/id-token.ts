// ID tokens (OpenID Connect Core §2, §3.1.3.6, §12.2), issued by the token endpoint whenever the
// grant's scope includes `openid`.
import { createHash } from "node:crypto";
import { toUnixSeconds } from "../clock";
import { db } from "../db/client";
import { userInfoClaims } from "../oauth/userinfo";
import { signJwt, DEFAULT_SIGNING_ALG, MAX_SIGNED_TOKEN_TTL_SECONDS, type SigningAlg } from "./keys";

/** ID tokens live an hour, the longest any signed token may (so a retired key's tokens have all expired). */
export const ID_TOKEN_TTL_SECONDS = MAX_SIGNED_TOKEN_TTL_SECONDS;

/**
 * Authentication methods (RFC 8176) of a member session: members sign in with a password only, so
 * `pwd`. No `acr`: there is one level of assurance, and a value nobody can request would say nothing
 * (docs/decisions.md).
 */
export const AMR = ["pwd"];

/** at_hash (Core §3.1.3.6): the left half of the access token's SHA-256 (RS256 and ES256 both hash with SHA-256), base64url. */
export function accessTokenHash(accessToken: string): string {
  return createHash("sha256").update(accessToken, "ascii").digest().subarray(0, 16).toString("base64url");
}

/** The member's claims source: what UserInfo reads, and their roles at the grant's school. */
export interface IdTokenMember {
  id: string;
  name: string;
  avatarUrl: string | null;
  email: string;
  emailVerified: boolean;
  roles: string[];
}

export interface IdTokenGrant {
  issuer: string;
  userId: string;
  schoolId: string;
  /** When the member signed in (null on grants made before issue 25: the grant's own time). */
  authTime: Date | null;
  sessionId: string | null;
  createdAt: Date;
}

/**
 * An ID token for this grant and client, with the claims UserInfo gives for `scope` (the same
 * `sub`, profile and email claims, `org_id` and `roles`). `nonce` only from the code exchange: a
 * refreshed ID token carries none (Core §12.2), and keeps `auth_time` of the original sign-in.
 */
export async function issueIdToken(options: {
  grant: IdTokenGrant;
  clientId: string;
  scope: string;
  accessToken: string;
  nonce: string | null;
  now: Date;
  /** The member, when the caller's own statement already read it (the refresh grant's does): no query then. */
  member?: IdTokenMember;
  /** The client's id_token_signed_response_alg (RS256 when it registered none). */
  alg?: SigningAlg;
}): Promise<string> {
  const { grant, clientId, accessToken, nonce, now } = options;
  const member = options.member ?? (await loadMember(grant));
  const iat = toUnixSeconds(now)!;
  const claims = userInfoClaims({ user: member, schoolId: grant.schoolId, scopes: new Set(options.scope.split(" ")), roles: member.roles });
  return signJwt(
    {
    iss: grant.issuer,
    ...claims,
    aud: clientId,
    azp: clientId,
    iat,
    exp: iat + ID_TOKEN_TTL_SECONDS,
    auth_time: toUnixSeconds(grant.authTime ?? grant.createdAt),
    ...(nonce !== null ? { nonce } : {}),
    at_hash: accessTokenHash(accessToken),
    ...(grant.sessionId ? { sid: grant.sessionId } : {}),
    amr: AMR,
    },
    { alg: options.alg ?? DEFAULT_SIGNING_ALG },
  );
}

async function loadMember(grant: IdTokenGrant): Promise<IdTokenMember> {
  const user = await db().user.findUnique({
    where: { id: grant.userId },
    select: { id: true, name: true, avatarUrl: true, email: true, emailVerified: true, memberships: { where: { schoolId: grant.schoolId }, select: { roles: true } } },
  });
  if (!user) throw new Error("the grant's member no longer exists");
  const { memberships, ...rest } = user;
  return { ...rest, roles: memberships[0]?.roles ?? [] };
}
