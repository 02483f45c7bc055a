import { randomUUID } from "node:crypto";

// Back-Channel Logout 1.0 §2.4: the logout token's claims. Signed with the ID tokens' keys, typ
// logout+jwt (§2.4: so it can never be mistaken for an ID token), short-lived (signJwt's default
// 120 s), never a nonce.
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
export const LOGOUT_TOKEN_TYP = "logout+jwt";

export function logoutTokenClaims(row: { issuer: string; clientId: string; sub: string; sid: string | null }): Record<string, unknown> {
  return {
    iss: row.issuer,
    aud: row.clientId,
    sub: row.sub,
    ...(row.sid ? { sid: row.sid } : {}),
    jti: randomUUID(),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
}
