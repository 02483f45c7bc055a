import type { MemberSession } from "../auth/session";
import { findClient, type OAuthClientInfo } from "../oauth/clients";
import { InvalidClientError } from "../oauth/errors";
import { JwtVerificationError, verifyOwnJwt } from "./keys";

// RP-Initiated Logout 1.0 (§2, §3): the request's parameters, checked before anything is ended or
// anyone is redirected. A redirect goes only to a post_logout_redirect_uri the client registered
// (exact match), so the endpoint can never be an open redirector.
export { END_SESSION_PATH } from "../oauth/discovery";
export const END_SESSION_CONFIRM_PATH = "/oauth/logout";
export const END_SESSION_PARAMS = ["id_token_hint", "client_id", "post_logout_redirect_uri", "state", "logout_hint", "ui_locales"] as const;

/** A refused request: shown as an error page (never a redirect, since the target is not trusted). */
export class EndSessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EndSessionError";
  }
}

export interface EndSessionRequest {
  /** The client the request names (client_id, or the hint's audience), or null. */
  client: OAuthClientInfo | null;
  /** Where to send the member afterwards (the registered URI with `state`), or null: our own page. */
  redirectTo: string | null;
  /** The session the hint names when it is this browser's current one: sign out without asking. */
  confirmed: boolean;
  /** The parameters to carry through the confirmation form. */
  params: URLSearchParams;
}

const MAX_PARAM = 4096;

/**
 * Validates an end-session request for the school origin `issuer` and the browser's current
 * `session`. An id_token_hint must be a token this deployment signed for this issuer (an expired
 * one is accepted, §2: logouts come after ID tokens expire), whose audience includes client_id
 * when both are sent. Without a hint, or with one for another session or member (stale), the
 * member is asked to confirm (`confirmed: false`).
 */
export async function validateEndSession(options: { params: URLSearchParams; issuer: string; session: MemberSession | null }): Promise<EndSessionRequest> {
  const { params, issuer, session } = options;
  const kept = new URLSearchParams();
  for (const name of END_SESSION_PARAMS) {
    const all = params.getAll(name);
    if (all.length > 1) throw new EndSessionError(`${name} was given more than once`);
    const value = all[0];
    if (value === undefined || value === "") continue;
    if (value.length > MAX_PARAM || value.includes("\u0000")) throw new EndSessionError(`${name} is not a valid value`);
    kept.set(name, value);
  }
  const hint = kept.get("id_token_hint");
  let clientId = kept.get("client_id") ?? null;
  let hinted: { sub?: string; sid?: string } | null = null;
  if (hint) {
    let payload;
    try {
      payload = await verifyOwnJwt(hint, { allowExpired: true });
    } catch (err) {
      if (err instanceof JwtVerificationError) throw new EndSessionError(`id_token_hint is not valid: ${err.message}`);
      throw err;
    }
    if (payload.iss !== issuer) throw new EndSessionError("id_token_hint was not issued by this school's address");
    // An ID token's typ is JWT or absent; a logout token (typ logout+jwt) has an events claim instead of being an ID token.
    if (payload.events !== undefined || typeof payload.sub !== "string") throw new EndSessionError("id_token_hint is not an ID token");
    const audiences = Array.isArray(payload.aud) ? payload.aud : typeof payload.aud === "string" ? [payload.aud] : [];
    if (clientId !== null && !audiences.includes(clientId)) throw new EndSessionError("client_id is not an audience of id_token_hint");
    if (clientId === null) {
      if (typeof payload.azp === "string") clientId = payload.azp;
      else if (audiences.length === 1) clientId = audiences[0]!;
    }
    hinted = { sub: payload.sub, sid: typeof payload.sid === "string" ? payload.sid : undefined };
  }
  let client: OAuthClientInfo | null = null;
  if (clientId !== null) {
    try {
      client = await findClient(clientId);
    } catch (err) {
      if (err instanceof InvalidClientError) throw new EndSessionError(`client_id: ${err.description}`);
      throw err;
    }
    if (!client) throw new EndSessionError("client_id names no client of this server");
  }
  let redirectTo: string | null = null;
  const target = kept.get("post_logout_redirect_uri");
  if (target) {
    if (!client) throw new EndSessionError("post_logout_redirect_uri needs client_id or id_token_hint, to know whose registered addresses to match");
    if (!client.postLogoutRedirectUris.includes(target)) throw new EndSessionError(`post_logout_redirect_uri is not registered for ${client.name}`);
    const url = new URL(target);
    const state = kept.get("state");
    if (state) url.searchParams.append("state", state);
    redirectTo = url.href;
  }
  const confirmed = hinted !== null && session !== null && hinted.sub === session.userId && (hinted.sid === undefined || hinted.sid === session.sessionId);
  return { client, redirectTo, confirmed, params: kept };
}
