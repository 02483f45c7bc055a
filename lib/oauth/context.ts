import { requestContext, requestSchool } from "../tenancy/request-context";
import { NotFoundError } from "./errors";
import type { HostSchool } from "./authorize";

/**
 * The issuer: the origin the client used (forwarded headers only behind a trusted proxy), never
 * with a trailing slash. Discovery, the `iss` redirect parameter and introspection all use it.
 */
export function issuerFor(request: { url: string; headers: Headers }): string {
  return requestContext(request).origin;
}

/** The school a request's host names (null on the bare platform host); unknown hosts are a 404. */
export async function hostSchool(headers: Headers): Promise<HostSchool> {
  const { match } = requestContext({ headers });
  if (match.kind === "invalid") throw new NotFoundError();
  if (match.kind === "bare") return { school: null };
  const school = await requestSchool({ headers });
  if (!school) throw new NotFoundError();
  return { school };
}
