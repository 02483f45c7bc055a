// Plans for createSubscription's new-member statement, kept in process with the content version
// they were read at. No invalidation is needed for exactness: that statement writes only while the
// database's ContentVersion (bumped by triggers on every write to MembershipPlan, among others) still
// equals the version read before the plan, so a plan changed since it was cached makes the statement
// write nothing, and createSubscription starts over with a fresh read.
import { dbHandle, type DbHandle } from "../db/client";
import type { MembershipPlan } from "../db/generated/client";

export interface VersionedPlan {
  plan: MembershipPlan;
  /** ContentVersion read before the plan: the plan is at least as new as this version. */
  contentVersion: bigint;
}

const MAX_PLANS = 1_000;

const slot = globalThis as typeof globalThis & { __schoolhousePlanCache?: WeakMap<DbHandle, Map<string, VersionedPlan>> };
const caches = (slot.__schoolhousePlanCache ??= new WeakMap());

function cacheOf(handle: DbHandle): Map<string, VersionedPlan> {
  let c = caches.get(handle);
  if (!c) caches.set(handle, (c = new Map()));
  return c;
}

/** The school's plan and the content version it is valid at; from the cache unless `fresh`. Null: no such plan. */
export async function versionedPlan(options: { schoolId: string; planId: string; fresh?: boolean }): Promise<(VersionedPlan & { cached: boolean }) | null> {
  const handle = dbHandle();
  const cache = cacheOf(handle);
  const key = `${options.schoolId}:${options.planId}`;
  const hit = options.fresh ? undefined : cache.get(key);
  if (hit) return { ...hit, cached: true };
  // The version first: a change landing between the two reads leaves the version older than the
  // plan, and the guarded statement then refuses to write with it.
  const version = await handle.prisma.contentVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  const plan = await handle.prisma.membershipPlan.findFirst({ where: { id: options.planId, schoolId: options.schoolId } });
  if (!plan) return null;
  if (!version) return { plan, contentVersion: -1n, cached: false };
  const entry = { plan, contentVersion: version.version };
  cache.delete(key);
  cache.set(key, entry);
  for (const oldest of cache.keys()) {
    if (cache.size <= MAX_PLANS) break;
    cache.delete(oldest);
  }
  return { ...entry, cached: false };
}

/** Drops a plan whose version no longer holds. */
export function forgetPlan(options: { schoolId: string; planId: string }): void {
  cacheOf(dbHandle()).delete(`${options.schoolId}:${options.planId}`);
}
