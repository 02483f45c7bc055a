import { env } from "../env";
import { matchHost, requestHost, requestOrigin } from "../tenancy/host";
import { resolveSchool } from "../tenancy/resolve-school";
import { NotFoundError } from "./errors";
import type { HostSchool } from "./authorize";

/**
 * The issuer: the origin the client used (forwarded headers only behind a trusted proxy), never
 * with a trailing slash. Discovery, the `iss` redirect parameter and introspection all use it.
 */
export function issuerFor(request: { url: string; headers: Headers }): string {
  return requestOrigin(request.url, request.headers, { trustProxy: env().TRUST_PROXY });
}

/** The school a request's host names (null on the bare platform host); unknown hosts are a 404. */
export async function hostSchool(headers: Headers): Promise<HostSchool> {
  const e = env();
  const match = matchHost(requestHost(headers, { trustProxy: e.TRUST_PROXY }), { platformDomain: e.PLATFORM_DOMAIN, trustProxy: e.TRUST_PROXY });
  if (match.kind === "invalid") throw new NotFoundError();
  if (match.kind === "bare") return { school: null };
  const school = await resolveSchool(headers);
  if (!school) throw new NotFoundError();
  return { school };
}
