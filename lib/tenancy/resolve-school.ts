import { env } from "../env";
import { db } from "../db/client";
import { asDatabaseUnavailable } from "../db/unavailable";
import type { School } from "../db/generated/client";
import type { HostMatch } from "./host";

export type { School };

/** A host's school, and whether it is the last answer seen because the database is unavailable. */
export interface SchoolState {
  school: School | null;
  stale: boolean;
}

// Schools change rarely and every request resolves one: a short cache saves a query per request.
// While the database is unavailable an expired entry is still used (stale-if-error), so the
// storefront's cached pages keep their school. On globalThis: the proxy and the pages share it.
const TTL_MS = 10_000;
const slot = globalThis as typeof globalThis & { __schoolhouseSchools?: Map<string, { school: School | null; expires: number }> };
const cache = (slot.__schoolhouseSchools ??= new Map());

export function clearSchoolCache(): void {
  cache.clear();
}

async function lookup(match: HostMatch): Promise<School | null> {
  switch (match.kind) {
    case "subdomain":
      return db().school.findUnique({ where: { subdomain: match.subdomain, disabledAt: null } });
    case "custom-domain":
      return db().school.findUnique({ where: { customDomain: match.domain, disabledAt: null } });
    case "bare":
      return (await db().school.findUnique({ where: { subdomain: env().DEFAULT_SCHOOL, disabledAt: null } })) ?? onlySchool();
    default:
      return null;
  }
}

/**
 * The bare host when DEFAULT_SCHOOL names no school: the one school there is, if there is exactly
 * one (a new own school on a database without the demo); with several, which one is not ours to guess.
 */
async function onlySchool(): Promise<School | null> {
  const schools = await db().school.findMany({ where: { disabledAt: null }, take: 2 });
  return schools.length === 1 ? schools[0]! : null;
}

/**
 * The school at a host (null when none answers there, or it is disabled), through the cache. Only
 * the request context (./request-context.ts) asks: everything else reads `RequestContext.school()`.
 * Throws DatabaseUnavailableError for a host never resolved before while the database is away.
 */
export async function cachedSchool(host: string | null, match: HostMatch): Promise<SchoolState> {
  const key = host ?? "";
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return { school: hit.school, stale: false };
  let school: School | null;
  try {
    school = await lookup(match);
  } catch (err) {
    const unavailable = asDatabaseUnavailable(err);
    if (!unavailable) throw err;
    if (hit) return { school: hit.school, stale: true };
    throw unavailable;
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { school, expires: Date.now() + TTL_MS });
  return { school, stale: false };
}

/** A school by id (the storefront's render route: the proxy named it in the render key). */
export async function findSchoolById(id: string): Promise<School | null> {
  return db().school.findUnique({ where: { id, disabledAt: null } });
}
