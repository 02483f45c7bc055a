import { db } from "../db/client";
import { validBrandColor } from "../storefront/brand";
import { AUTHORIZE_PATH } from "./authorize";
import { findClient } from "./clients";
import { requestContext } from "../tenancy/request-context";
import { authorizationServerSchool } from "./context";

export interface LoginContext {
  /** The school the member signs in to, with its validated accent colour; null when not yet known. */
  school: { name: string; brandColor: string | null } | null;
  /** The requesting application's name when the login continues an authorization request. */
  clientName: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who the login page is for. A plain login belongs to the host's storefront school. A login that
 * continues /oauth/authorize (the callback, already same-site) shows the application asking, and
 * the school the request names (school_id, else the host's school; none on the platform host, where
 * the member picks one next). Lookups that fail show nothing rather than an error: the authorize
 * endpoint owns every decision about the request.
 */
export async function loginContext(options: { headers: Headers; callbackUrl: string }): Promise<LoginContext> {
  const context = requestContext({ headers: options.headers });
  const callback = new URL(options.callbackUrl, "http://callback.invalid");
  if (callback.pathname !== AUTHORIZE_PATH) {
    return { school: brandOf(await context.school().catch(() => null)), clientName: null };
  }
  const client = await findClient(callback.searchParams.get("client_id")).catch(() => null);
  const schoolId = callback.searchParams.get("school_id");
  const school =
    schoolId !== null
      ? UUID.test(schoolId)
        ? await db().school.findFirst({ where: { id: schoolId, disabledAt: null } })
        : null
      : await authorizationServerSchool(context).then(
          (h) => h.school,
          () => null,
        );
  return { school: brandOf(school), clientName: client?.name ?? null };
}

function brandOf(school: { name: string; brandColor: string | null } | null): LoginContext["school"] {
  return school ? { name: school.name, brandColor: validBrandColor(school.brandColor) } : null;
}
