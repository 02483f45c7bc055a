import type { AuditActor } from "../../db/audit";
import { db } from "../../db/client";
import { failure, success, type Payload } from "../../db/write-transaction";
import { rotateClientSecret } from "../client-admin/rotate-client-secret";
import { OAuthClientCommandError } from "../client-admin/errors";
import { APP_NOT_FOUND } from "./app-input";

export const NO_SECRET_TO_ROTATE = "This app has no secret to rotate (it is public or signs its requests with its own keys)";
export const APP_REVOKED = "This app is revoked";

/**
 * A new secret for one of the school's confidential clients, returned once; the old one works 24
 * hours more (a deployment switches without downtime) unless `endOldNow` (it leaked).
 */
export async function rotateSchoolClientSecret(options: {
  schoolId: string;
  input: { clientId: string; endOldNow?: boolean };
  now: Date;
  actor: AuditActor;
}): Promise<Payload<{ clientId: string; secret: string; previousValidUntil: Date | null }>> {
  const { schoolId, input, now, actor } = options;
  if (!input.clientId || input.clientId.length > 200) return failure(APP_NOT_FOUND);
  const row = await db().oAuthClient.findFirst({ where: { clientId: input.clientId, schoolId } });
  if (!row) return failure(APP_NOT_FOUND);
  if (row.revokedAt) return failure(APP_REVOKED);
  if (row.tokenEndpointAuthMethod !== "client_secret_basic" && row.tokenEndpointAuthMethod !== "client_secret_post") return failure(NO_SECRET_TO_ROTATE);
  try {
    return success(await rotateClientSecret({ db: db(), clientId: row.clientId, now, overlap: !input.endOldNow, actor }));
  } catch (err) {
    if (err instanceof OAuthClientCommandError) return failure(err.message);
    throw err;
  }
}
