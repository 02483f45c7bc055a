import { getMemberSession, type MemberSession } from "../auth/session";
import { NotFoundError } from "../oauth/errors";
import { requestContext } from "../tenancy/request-context";
import { EndSessionError, validateEndSession } from "./end-session-request";
import { authorizationServerSchool } from "../oauth/context";

type School = { name: string; brandColor: string | null };

export type EndSessionPageState =
  | { kind: "error"; title: string; message: string; school: School | null }
  | { kind: "signed_out"; school: School | null }
  | { kind: "confirm"; school: School | null; session: MemberSession; clientName: string | null; params: URLSearchParams };

/**
 * What /oauth/logout shows: the confirmation form for a valid end-session request while a member
 * is signed in, "signed out" otherwise, or why the request was refused. The form posts to
 * /oauth/end-session, which validates again and decides.
 */
export async function endSessionForPage(headers: Headers, params: URLSearchParams): Promise<EndSessionPageState> {
  const context = requestContext({ headers });
  let school: School | null = null;
  try {
    // The bare platform host (the school picker's) has its own sessions: no school branding there.
    school = (await authorizationServerSchool(context)).school;
    const session = await getMemberSession({ headers });
    if (!session || params.get("signed_out")) return { kind: "signed_out", school };
    const checked = await validateEndSession({ params, issuer: context.origin, session });
    return { kind: "confirm", school, session, clientName: checked.client?.name ?? null, params: checked.params };
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: "error", title: "Page not found", message: error.description, school: null };
    if (error instanceof EndSessionError) return { kind: "error", title: "Sign-out request refused", message: error.message, school };
    throw error;
  }
}
