import { db } from "../../db/client";
import { isMetadataDocumentClientId } from "../cimd";

/**
 * How an app reached the school: a client staff (or the operator's CLI) made for this school, a
 * vendor platform's registration or a platform client usable at every school, or a Client ID
 * Metadata Document (a URL as client_id, nothing stored but its grants).
 */
export type SchoolAppKind = "school_client" | "platform_client" | "metadata_document";

export interface SchoolApp {
  clientId: string;
  name: string;
  kind: SchoolAppKind;
  /** none (public, PKCE), client_secret_basic, private_key_jwt… ; "none" for metadata documents. */
  authMethod: string;
  /** The vendor platform that registered it, for dynamic registrations. */
  vendor: string | null;
  redirectUris: string[];
  scope: string;
  /** Until then the secret replaced by the last rotation still works. */
  previousSecretValidUntil: Date | null;
  revokedAt: Date | null;
  createdAt: Date | null;
  /** Live (unrevoked) grants at this school. */
  liveGrants: number;
  lastGrantAt: Date | null;
}

/** At most this many apps of each source are listed (a school with more reads them through the CLI). */
export const MAX_APPS_LISTED = 200;

/**
 * The school's OAuth apps: its own clients (revoked ones too, last), and every other client with a
 * grant at the school (platform and vendor clients, metadata documents), with their live grants.
 */
export async function listSchoolApps(options: { schoolId: string }): Promise<SchoolApp[]> {
  const { schoolId } = options;
  const [own, grants] = await Promise.all([
    db().oAuthClient.findMany({
      where: { schoolId },
      orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
      take: MAX_APPS_LISTED,
      include: { vendorPlatform: { select: { name: true } } },
    }),
    db().$queryRaw<{ clientId: string; live: bigint; last: Date }[]>`
      SELECT "clientId", count(*) FILTER (WHERE "revokedAt" IS NULL) AS "live", max("createdAt") AS "last"
        FROM "OAuthGrant" WHERE "schoolId" = ${schoolId}::uuid
       GROUP BY "clientId" ORDER BY max("createdAt") DESC LIMIT ${MAX_APPS_LISTED}`,
  ]);
  const byClient = new Map(grants.map((g) => [g.clientId, g]));
  const others = grants.filter((g) => !own.some((c) => c.clientId === g.clientId));
  const registered = await db().oAuthClient.findMany({
    where: { clientId: { in: others.map((g) => g.clientId).filter((id) => !isMetadataDocumentClientId(id)) } },
    include: { vendorPlatform: { select: { name: true } } },
  });
  const fromRow = (c: (typeof own)[number], kind: SchoolAppKind): SchoolApp => ({
    clientId: c.clientId,
    name: c.name,
    kind,
    authMethod: c.tokenEndpointAuthMethod,
    vendor: c.vendorPlatform?.name ?? null,
    redirectUris: c.redirectUris,
    scope: c.scope,
    previousSecretValidUntil: c.previousClientSecretExpiresAt,
    revokedAt: c.revokedAt,
    createdAt: c.createdAt,
    liveGrants: Number(byClient.get(c.clientId)?.live ?? 0),
    lastGrantAt: byClient.get(c.clientId)?.last ?? null,
  });
  const apps = own.map((c) => fromRow(c, "school_client"));
  for (const g of others) {
    const row = registered.find((c) => c.clientId === g.clientId);
    if (row) {
      // Another school's client cannot have a grant here (authorize refuses it); kept out all the same.
      if (row.schoolId === null) apps.push(fromRow(row, "platform_client"));
      continue;
    }
    if (!isMetadataDocumentClientId(g.clientId)) continue;
    apps.push({
      clientId: g.clientId,
      name: hostOf(g.clientId),
      kind: "metadata_document",
      authMethod: "none",
      vendor: null,
      redirectUris: [],
      scope: "",
      previousSecretValidUntil: null,
      revokedAt: null,
      createdAt: null,
      liveGrants: Number(g.live),
      lastGrantAt: g.last,
    });
  }
  return apps;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}
