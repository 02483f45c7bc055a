// Security events as structured log lines: one JSON object per line on stderr, so a log pipeline can
// alert on them (code replay, refresh-token reuse, login throttling, failed client authentication,
// session revocation) without parsing prose.

export type SecurityEvent =
  | "oauth.code_replay"
  | "oauth.refresh_token_reuse"
  | "oauth.client_auth_failed"
  | "login.throttled"
  | "session.revoked";

export type SecurityEventFields = Record<string, string | number | boolean | null | undefined>;

export function securityEvent(event: SecurityEvent, fields: SecurityEventFields = {}): void {
  console.warn(JSON.stringify({ type: "security", event, at: new Date().toISOString(), ...fields }));
}
