import type { Db } from "../../db/client";
import { findSchoolByRef } from "../../schools/find-school";

/** Registered OAuth clients (never their secrets or hashes), optionally of one school. */
export async function listOAuthClients(options: { db: Pick<Db, "school" | "oAuthClient">; school?: string }) {
  const where = options.school ? { schoolId: (await findSchoolByRef({ db: options.db, ref: options.school })).id } : {};
  return options.db.oAuthClient.findMany({
    where,
    orderBy: { createdAt: "asc" },
    select: {
      clientId: true,
      name: true,
      redirectUris: true,
      scope: true,
      tokenEndpointAuthMethod: true,
      previousClientSecretExpiresAt: true,
      revokedAt: true,
      createdAt: true,
      school: { select: { subdomain: true } },
    },
  });
}
