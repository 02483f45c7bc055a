// Security events as structured log lines: one JSON object per line on stderr, so a log pipeline can
// alert on them (code replay, refresh-token reuse, login throttling, failed client authentication,
// session revocation, tokens presented to another origin) without parsing prose.

export type SecurityEvent =
  | "oauth.code_replay"
  | "oauth.refresh_token_reuse"
  | "oauth.client_auth_failed"
  // A code or token presented on an origin other than the one that issued it (issue 12).
  | "oauth.issuer_mismatch"
  // A member or staff disconnected an app (issue 25: lib/oauth/member-grants).
  | "oauth.grant_revoked"
  // Staff revoked one of the school's own OAuth clients in the console (issue 28: lib/oauth/school-apps).
  | "oauth.client_revoked"
  // Staff turned Client ID Metadata Document apps off (or on) for their school (issue 28).
  | "oauth.cimd_setting_changed"
  // A private_key_jwt client assertion presented twice (issue 25).
  | "oauth.client_assertion_replay"
  // The active OpenID Connect signing key cannot be opened with this AUTH_SECRET; a new one replaced it (issue 25).
  | "oidc.signing_key_unreadable"
  | "login.throttled"
  // A member changed their password on their account page (other sessions end with it).
  | "password.changed"
  // A member changed their email (their sign-in name) on their account page, proving their password.
  | "email.changed"
  | "session.revoked";

export type SecurityEventFields = Record<string, string | number | boolean | null | undefined>;

export function securityEvent(event: SecurityEvent, fields: SecurityEventFields = {}): void {
  console.warn(JSON.stringify({ type: "security", event, at: new Date().toISOString(), ...fields }));
}
