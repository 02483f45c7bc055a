import { authSecret } from "../auth/auth-secret";
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from "../auth/cookies";
import { csrfTokenFromCookies } from "../auth/csrf";
import { getMemberSession } from "../auth/session";
import { now as clockNow } from "../clock";
import { safeEqual } from "../credentials/secret";
import { asOAuthError, OAuthError } from "../oauth/errors";
import { htmlErrorPage, unavailablePage } from "../core/html-page";
import { readOAuthBody } from "../oauth/http";
import { TemporarilyUnavailableError } from "../oauth/errors";
import { endMemberSession } from "./end-member-session";
import { END_SESSION_CONFIRM_PATH, EndSessionError, validateEndSession } from "./end-session-request";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "../oauth/context";

/** The session cookies, cleared (the row is already revoked; this tidies the browser). */
const CLEAR_COOKIES = [SESSION_COOKIE, SECURE_SESSION_COOKIE].map((name) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`);

function seeOther(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(null, { status: 303, headers });
}

const refused = (message: string) => htmlErrorPage(400, "Sign-out request refused", message);

/**
 * GET or POST /oauth/end-session (RP-Initiated Logout 1.0). A valid request whose id_token_hint
 * names this browser's current session signs out at once; otherwise the member confirms on
 * /oauth/logout, whose form posts back here with `decision` and the CSRF token. Signing out ends
 * the server-side session of this origin (the school's, or the platform host's) and queues back-channel logouts; then the
 * member goes to the registered post_logout_redirect_uri (with `state`) or to our signed-out page.
 */
export async function handleEndSessionRequest(request: Request): Promise<Response> {
  try {
    return await endSession(request);
  } catch (error) {
    if (error instanceof EndSessionError) return refused(error.message);
    const oauth = asOAuthError(error);
    if (oauth instanceof TemporarilyUnavailableError) return unavailablePage();
    if (oauth) return htmlErrorPage(oauth.status, oauth.status === 404 ? "Not found" : "Sign-out request refused", oauth.description);
    throw error;
  }
}

async function endSession(request: Request): Promise<Response> {
  // Unknown hosts are a 404; the bare platform host has sessions (and an issuer) of its own too.
  const context = requestContext(request);
  await authorizationServerSchool(context);
  let params: URLSearchParams;
  let decision: string | null = null;
  if (request.method === "POST") {
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") throw new EndSessionError("The request must be a form (application/x-www-form-urlencoded)");
    let body: string;
    try {
      body = await readOAuthBody(request);
    } catch (error) {
      if (error instanceof OAuthError) throw new EndSessionError(error.description);
      throw error;
    }
    params = new URLSearchParams(body);
    decision = params.get("decision");
    if (decision !== null) {
      // The confirmation form's answer: only from a page of this site (double-submit token).
      const expected = csrfTokenFromCookies(request.headers.get("cookie"), authSecret());
      if (expected === null || !safeEqual(params.get("csrf_token") ?? "", expected)) {
        return htmlErrorPage(403, "Form expired", "The sign-out form expired or was not sent by this site. Go back and try again.");
      }
      if (decision !== "logout" && decision !== "stay") throw new EndSessionError("decision must be logout or stay");
    }
  } else {
    params = new URL(request.url).searchParams;
  }
  const session = await getMemberSession(request);
  const checked = await validateEndSession({ params, issuer: context.origin, session });
  const done = checked.redirectTo ?? `${END_SESSION_CONFIRM_PATH}?signed_out=1`;
  if (decision === "stay") return seeOther(checked.redirectTo ?? "/");
  if (!session) return seeOther(done, CLEAR_COOKIES);
  if (decision === "logout" || checked.confirmed) {
    await endMemberSession({ sessionId: session.sessionId, reason: "rp_initiated_logout", now: clockNow(), audit: null });
    return seeOther(done, CLEAR_COOKIES);
  }
  return seeOther(`${END_SESSION_CONFIRM_PATH}?${checked.params}`);
}
