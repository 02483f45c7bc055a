import type { RequestContext } from "../tenancy/request-context";
import { NotFoundError } from "./errors";
import type { HostSchool } from "./authorize";

/**
 * The school an OAuth or OpenID Connect endpoint answers for, from the request context: none on the
 * bare platform host (the platform's authorization server, where the member picks a school), the
 * host's school elsewhere; a host that names no school is a 404. The issuer is `context.origin`.
 */
export async function authorizationServerSchool(context: RequestContext): Promise<HostSchool> {
  const { match } = context;
  if (match.kind === "invalid") throw new NotFoundError();
  if (match.kind === "bare") return { school: null };
  const school = await context.school();
  if (!school) throw new NotFoundError();
  return { school };
}
