import { env } from "../env";
import { db } from "../db/client";
import { asDatabaseUnavailable } from "../db/unavailable";
import type { School } from "../db/generated/client";
import { matchHost, requestHost, type HostMatch } from "./host";

export type { School };

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

/** The school a request addresses, from its host; null when no school answers there (or it is disabled). */
export async function resolveSchool(headers: Headers): Promise<School | null> {
  return (await resolveSchoolState(headers)).school;
}

/**
 * resolveSchool, saying whether the answer is the last one seen because the database is
 * unavailable (`stale`). Throws DatabaseUnavailableError for a host never resolved before.
 */
export async function resolveSchoolState(headers: Headers): Promise<{ school: School | null; stale: boolean }> {
  const e = env();
  const host = requestHost(headers, { trustProxy: e.TRUST_PROXY });
  const key = host ?? "";
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return { school: hit.school, stale: false };
  let school: School | null;
  try {
    school = await lookup(matchHost(host, { platformDomain: e.PLATFORM_DOMAIN, trustProxy: e.TRUST_PROXY }));
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

export async function findSchoolById(id: string): Promise<School | null> {
  return db().school.findUnique({ where: { id, disabledAt: null } });
}
