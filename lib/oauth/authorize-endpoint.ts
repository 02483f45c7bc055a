import { getMemberSession } from "../auth/session";
import { csrfTokenFromCookies } from "../auth/csrf";
import { now as clockNow } from "../clock";
import { authSecret } from "../auth/auth-secret";
import { safeEqual } from "../credentials/secret";
import {
  AUTHORIZE_PATH,
  AuthorizePageError,
  AuthorizeRedirectError,
  decideConsent,
  errorRedirect,
  loginRequired,
  nextAuthorizeStep,
  resolveClientAndRedirect,
  validateAuthorization,
} from "./authorize";
import { NotFoundError, OAuthError } from "./errors";
import { readOAuthBody, refuseNul } from "./http";
import { asDatabaseUnavailable } from "../db/unavailable";
import { REFUSED_BODY_HEADERS } from "../http/body";
import { htmlErrorPage, unavailablePage } from "../core/html-page";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";

const redirect = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/** The consent form's answer: whether its CSRF token is genuine, and which account the page showed. */
interface ConsentAnswer {
  csrfValid: boolean;
  shownAccount: string | null;
}

async function run(request: Request, params: URLSearchParams, answer: ConsentAnswer | null): Promise<Response> {
  const context = requestContext(request);
  const issuer = context.origin;
  let selfDescribed = false;
  try {
    refuseNul(params);
    const host = await authorizationServerSchool(context);
    const { client, redirectUri } = await resolveClientAndRedirect(params);
    selfDescribed = client.isMetadataDocument;
    const validated = await validateAuthorization({ params, client, redirectUri, host });
    const session = await getMemberSession(request);
    if (answer && session) {
      const approve = params.get("decision") === "allow";
      if (!answer.csrfValid) return htmlErrorPage(403, "Form expired", "The consent form expired or was not sent by this site. Go back and try again.");
      // The page showed another account than the one signed in now (a sign-in in another tab):
      // the answer was given for that account, so start over and ask the current one.
      if (answer.shownAccount !== session.userId) return redirect(`${AUTHORIZE_PATH}?${validated.params.toString()}`);
      // prompt=login not yet satisfied (a consent form reached without the new sign-in): sign in first.
      const login = loginRequired(validated, session, clockNow());
      if (login) return redirect(login);
      return redirect(await decideConsent({ request: validated, session, approve, issuer, now: clockNow() }));
    }
    const step = await nextAuthorizeStep({ request: validated, session, issuer, now: clockNow() });
    return redirect(step.location);
  } catch (error) {
    if (error instanceof NotFoundError) return htmlErrorPage(404, "Page not found", error.description);
    if (error instanceof AuthorizePageError) return htmlErrorPage(error.status, error.title, error.message);
    if (error instanceof AuthorizeRedirectError) {
      // Anyone can publish a metadata document naming any redirect URI: sending an error there
      // before the member has seen the consent page would make us an open redirector (RFC 9700
      // §4.11.2). The member's own answer (the consent POST) may go back to it.
      if (selfDescribed && !answer) return htmlErrorPage(400, "Invalid request", `${error.error.description}.`);
      return redirect(errorRedirect(error, issuer));
    }
    // NUL in a parameter (refuseNul): nothing was looked up, and the redirect URI is unchecked.
    if (error instanceof OAuthError && error.status < 500) return htmlErrorPage(error.status, "Invalid request", error.description);
    // A page for the member, not a redirect: without the database the client and its redirect
    // URI cannot be checked, and a member mid-flow can go back and retry (docs/decisions.md).
    if (asDatabaseUnavailable(error)) return unavailablePage();
    throw error;
  }
}

/** GET /oauth/authorize: validate, then send the member to login, the school picker, consent, or back with a code. */
export function handleAuthorizeGet(request: Request): Promise<Response> {
  return run(request, new URL(request.url).searchParams, null);
}

/** POST /oauth/authorize: the consent form's answer (allow or deny), CSRF-checked. */
export async function handleAuthorizePost(request: Request): Promise<Response> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return htmlErrorPage(400, "Invalid request", "The consent form must be posted as a form.");
  let body: string;
  try {
    body = await readOAuthBody(request);
  } catch (error) {
    if (error instanceof OAuthError) {
      return error.status === 413
        ? htmlErrorPage(413, "Request too large", error.description, { ...REFUSED_BODY_HEADERS })
        : htmlErrorPage(error.status, "Invalid request", error.description);
    }
    throw error;
  }
  const params = new URLSearchParams(body);
  const sent = params.get("csrf_token") ?? "";
  const shownAccount = params.get("account");
  params.delete("csrf_token");
  params.delete("account");
  const expected = csrfTokenFromCookies(request.headers.get("cookie"), authSecret());
  return run(request, params, { csrfValid: expected !== null && safeEqual(sent, expected), shownAccount });
}
