import { getMemberSession, type MemberSession } from "../auth/session";
import type { School } from "../db/generated/client";
import { now } from "../clock";
import {
  AUTHORIZE_PATH,
  AuthorizePageError,
  loginRequired,
  memberSchools,
  resolveClientAndRedirect,
  validateAuthorization,
  type ValidatedAuthorization,
} from "./authorize";
import { NotFoundError } from "./errors";
import { SCOPE_DESCRIPTIONS } from "./scopes";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";

export type PageState =
  | { kind: "redirect"; location: string }
  | { kind: "error"; title: string; message: string }
  | { kind: "ok"; request: ValidatedAuthorization; session: MemberSession; schools: School[] };

/**
 * What the school picker and consent pages may show. They only render a request that is valid
 * and has a signed-in member; anything else goes back through /oauth/authorize, which owns every
 * decision (errors to the client, login, school choice).
 */
export async function authorizationForPage(headers: Headers, params: URLSearchParams): Promise<PageState> {
  const backToAuthorize = { kind: "redirect" as const, location: `${AUTHORIZE_PATH}?${params.toString()}` };
  try {
    const host = await authorizationServerSchool(requestContext({ headers }));
    const { client, redirectUri } = await resolveClientAndRedirect(params);
    const request = await validateAuthorization({ params, client, redirectUri, host });
    const session = await getMemberSession({ headers });
    // No session, or prompt=login not yet satisfied: /oauth/authorize sends the member to sign in.
    if (!session || loginRequired(request, session, now())) return backToAuthorize;
    const schools = await memberSchools(session.userId, client);
    return { kind: "ok", request, session, schools };
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: "error", title: "Page not found", message: error.description };
    if (error instanceof AuthorizePageError) return { kind: "error", title: error.title, message: error.message };
    return backToAuthorize;
  }
}

export function describeScopes(scopes: string[]): { scope: string; description: string }[] {
  return scopes.map((scope) => ({ scope, description: Object.hasOwn(SCOPE_DESCRIPTIONS, scope) ? SCOPE_DESCRIPTIONS[scope]! : scope }));
}

/** The redirect URI's host, shown on the consent page so members see where they are sent. */
export function redirectHost(redirectUri: string): string {
  return new URL(redirectUri).host;
}
