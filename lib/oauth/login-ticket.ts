import { createHmac } from "node:crypto";
import { authSecret } from "../auth/auth-secret";
import { safeEqual } from "../credentials/secret";

/**
 * `prompt=login` (OpenID Connect Core §3.1.2.1) asks for a sign-in during this authorization
 * request, even when the member already has a session. The authorize endpoint sends the member to
 * the login page with a callback that no longer says `prompt=login` but carries this ticket: the
 * time the sign-in was asked for, MACed with the auth secret so it cannot be moved back. Back at
 * /oauth/authorize the request goes on only with a session created at or after that time.
 *
 * A ticket expires after LOGIN_TICKET_TTL_SECONDS: whoever holds a ticket URL (it is in the browser
 * history) could otherwise reuse it later with any session created after it.
 */
export const LOGIN_TICKET_PARAM = "login_ticket";
export const LOGIN_TICKET_TTL_SECONDS = 10 * 60;

const mac = (issuedAtMs: number) => createHmac("sha256", authSecret()).update(`oauth-prompt-login|${issuedAtMs}`).digest("base64url");

export function createLoginTicket(now: Date): string {
  const ms = now.getTime();
  return `${ms}.${mac(ms)}`;
}

/** When the ticket asked for a sign-in, or null if it is forged, malformed, from the future or expired. */
export function loginTicketTime(ticket: string, now: Date): Date | null {
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
  if (!m) return null;
  const ms = Number(m[1]);
  if (!safeEqual(m[2]!, mac(ms))) return null;
  const age = now.getTime() - ms;
  if (age < 0 || age > LOGIN_TICKET_TTL_SECONDS * 1000) return null;
  return new Date(ms);
}

/** Whether a login page's callback continues an authorization that asked for a new sign-in. */
export function callbackAsksForSignIn(callbackUrl: string): boolean {
  return new URL(callbackUrl, "http://callback.invalid").searchParams.has(LOGIN_TICKET_PARAM);
}
