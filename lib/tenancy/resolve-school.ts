import { env } from "../env";
import { db } from "../db/client";
import type { School } from "../db/generated/client";
import { matchHost, requestHost, type HostMatch } from "./host";

export type { School };

// Schools change rarely and every request resolves one: a short cache saves a query per request.
const TTL_MS = 10_000;
const cache = new Map<string, { school: School | null; expires: number }>();

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
      return db().school.findUnique({ where: { subdomain: env().DEFAULT_SCHOOL, disabledAt: null } });
    default:
      return null;
  }
}

/** The school a request addresses, from its host; null when no school answers there (or it is disabled). */
export async function resolveSchool(headers: Headers): Promise<School | null> {
  const e = env();
  const host = requestHost(headers, { trustProxy: e.TRUST_PROXY });
  const key = host ?? "";
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.school;
  const school = await lookup(matchHost(host, { platformDomain: e.PLATFORM_DOMAIN, trustProxy: e.TRUST_PROXY }));
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { school, expires: Date.now() + TTL_MS });
  return school;
}

export async function findSchoolById(id: string): Promise<School | null> {
  return db().school.findUnique({ where: { id, disabledAt: null } });
}
