import { isUuid } from "../../core/ids";
import { db } from "../../db/client";
import { presentKey, type ApiKeyRecord } from "./key-input";

/** At most this many keys are listed: unrevoked ones first, so a long history of rotations hides no live key. */
export const MAX_KEYS_LISTED = 200;

/**
 * A school's API keys: unrevoked ones first (live, then expired, newest first), then revoked ones,
 * with their last use (written at most once a minute per key by verification:
 * lib/credentials/verify-api-key.ts).
 */
export async function listApiKeys(options: { schoolId: string; now: Date }): Promise<ApiKeyRecord[]> {
  const rows = await db().apiKey.findMany({
    where: { schoolId: options.schoolId },
    orderBy: [{ revokedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }, { id: "desc" }],
    take: MAX_KEYS_LISTED,
  });
  const keys = rows.map((r) => presentKey(r, options.now));
  return [...keys.filter((k) => k.status === "active"), ...keys.filter((k) => k.status !== "active")];
}

/** One key of a school, or null (another school's id is not found, like an unknown one). */
export async function findApiKeyRecord(options: { schoolId: string; id: string; now: Date }): Promise<ApiKeyRecord | null> {
  if (!isUuid(options.id)) return null;
  const row = await db().apiKey.findFirst({ where: { id: options.id, schoolId: options.schoolId } });
  return row ? presentKey(row, options.now) : null;
}
