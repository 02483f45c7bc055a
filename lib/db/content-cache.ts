// In-process cache of values built from school content: storefront pages (documents, markdown,
// llms files) and the Admin API's course list.
//
// Values are rebuilt only when content changed. "Changed" is the database's ContentVersion row,
// which triggers bump on every write to a table the storefront reads, whoever writes. A version
// read is trusted for STOREFRONT_REVALIDATE_MS (measured from when the read started), so a write
// shows within that time on every instance, and the hot path does no query at all. Reads are
// batched: callers that need a fresh version while one is in flight wait for the next read, which
// starts after they asked (the one in flight may predate a write they depend on), and share it.
// With STOREFRONT_REVALIDATE_MS=0 every request sees every write committed before it arrived.
//
// Stale-if-error (RFC 5861): entries of older versions stay until their key is rebuilt or the
// memory bound drops them. When the database is unavailable (lib/db/unavailable.ts) and a page
// cannot be checked or rebuilt, its last built copy is served and marked stale; a page never
// built answers DatabaseUnavailableError.
//
// State lives on globalThis: Next.js bundles the proxy, pages and route handlers separately, and
// they must share one cache (the proxy checks a page can be served before the page renders).
import { now } from "../clock";
import { db } from "./client";
import { env } from "../env";
import { asDatabaseUnavailable } from "./unavailable";

export interface CachedValue<T> {
  value: T;
  /** Approximate size in bytes, for the memory bound. */
  bytes: number;
  /** Business time at which the value goes stale even without a write (an upcoming event ends). */
  changesAt?: Date | null;
}

interface Entry {
  version: bigint;
  value: unknown;
  bytes: number;
  changesAt: number | null;
}

/** Total size the cache may hold; least recently used pages are dropped beyond it. */
export const CONTENT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

interface CacheState {
  entries: Map<string, Entry>;
  building: Map<string, Promise<unknown>>;
  totalBytes: number;
  seenVersion: bigint | null;
  inFlight: Promise<bigint | null> | null;
  queued: Promise<bigint | null> | null;
  /** The last successful read, and when (monotonic ms) it started. */
  lastRead: { version: bigint | null; startedAt: number } | null;
}

const slot = globalThis as typeof globalThis & { __schoolhouseContentCache?: CacheState };
const state: CacheState = (slot.__schoolhouseContentCache ??= {
  entries: new Map(),
  building: new Map(),
  totalBytes: 0,
  seenVersion: null,
  inFlight: null,
  queued: null,
  lastRead: null,
});
const { entries, building } = state;

/** Versions only grow; null means the row is missing and nothing may be cached. */
async function queryVersion(): Promise<bigint | null> {
  const startedAt = performance.now();
  const row = await db().contentVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  const version = row?.version ?? null;
  if (!state.lastRead || startedAt > state.lastRead.startedAt) state.lastRead = { version, startedAt };
  return version;
}

/** The last read's version while it is recent enough to trust, else undefined. */
function trustedVersion(): bigint | null | undefined {
  const last = state.lastRead;
  if (!last) return undefined;
  return performance.now() - last.startedAt < env().STOREFRONT_REVALIDATE_MS ? last.version : undefined;
}

/**
 * The content version as of a read that started after this call. A read already in flight may
 * have started before a write this caller depends on, so callers arriving during one wait for
 * the next; everyone arriving meanwhile shares that next read.
 */
export function readContentVersion(): Promise<bigint | null> {
  if (!state.inFlight) {
    state.inFlight = queryVersion().finally(() => {
      state.inFlight = null;
    });
    return state.inFlight;
  }
  if (!state.queued) {
    state.queued = state.inFlight
      .catch(() => undefined)
      .then(() => {
        state.queued = null;
        return readContentVersion();
      });
  }
  return state.queued;
}

/**
 * The content version as the cache trusts it now: the last read while it is recent enough
 * (STOREFRONT_REVALIDATE_MS), else a new read. For other process caches that follow content
 * (lib/billing/checkout-item-cache.ts) with the same staleness bound as the pages.
 */
export function trustedContentVersion(): Promise<bigint | null> {
  const trusted = trustedVersion();
  return trusted === undefined ? readContentVersion() : Promise.resolve(trusted);
}

function drop(key: string): void {
  const e = entries.get(key);
  if (!e) return;
  entries.delete(key);
  state.totalBytes -= e.bytes;
}

function store(key: string, entry: Entry): void {
  drop(key);
  if (entry.bytes > CONTENT_CACHE_MAX_BYTES / 4) return;
  entries.set(key, entry);
  state.totalBytes += entry.bytes;
  for (const oldest of entries.keys()) {
    if (state.totalBytes <= CONTENT_CACHE_MAX_BYTES) break;
    drop(oldest);
  }
}

/** A value and whether it is the last built copy served because the database is unavailable. */
export interface ContentResult<T> {
  value: T;
  stale: boolean;
}

/**
 * The cached value for `key`, or `build()`'s result, cached until the content version changes or
 * the value's `changesAt` passes. Concurrent misses for one key share one build. When the
 * database is unavailable, the last built copy (of any version) with `stale: true`; without one,
 * DatabaseUnavailableError.
 */
export async function cachedContentState<T>(key: string, build: () => Promise<CachedValue<T>>): Promise<ContentResult<T>> {
  try {
    return { value: await fresh(key, build), stale: false };
  } catch (err) {
    const unavailable = asDatabaseUnavailable(err);
    if (!unavailable) throw err;
    const last = entries.get(key);
    if (!last) throw unavailable;
    return { value: last.value as T, stale: true };
  }
}

/** The fresh value only (the Admin API: an API client must never get an old copy unannounced). */
export function cachedContent<T>(key: string, build: () => Promise<CachedValue<T>>): Promise<T> {
  return fresh(key, build);
}

/**
 * The version values may be cached at now, or null when nothing may be: the row is missing (a
 * database restored from a dump that predates it), or the read finished before a newer one was
 * processed (build, but cache nothing old).
 */
async function cacheableVersion(): Promise<bigint | null> {
  const trusted = trustedVersion();
  const version = trusted === undefined ? await readContentVersion() : trusted;
  if (version === null) return null;
  if (state.seenVersion === null || version > state.seenVersion) {
    // Every page may depend on the write: entries of older versions never count as hits again,
    // but stay as the last built copies until rebuilt (served only while the database is down).
    building.clear();
    state.seenVersion = version;
  } else if (version < state.seenVersion) {
    return null;
  }
  return version;
}

/** The entry of `key` if it was built at `version` and has not gone stale since. */
function hitAt(key: string, version: bigint): Entry | undefined {
  const hit = entries.get(key);
  if (!hit || hit.version !== version || (hit.changesAt !== null && now().getTime() >= hit.changesAt)) return undefined;
  // Re-insert so Map order is least recently used first.
  entries.delete(key);
  entries.set(key, hit);
  return hit;
}

/** What contentSlot found: the value cached under the key, if any, and how to store one. */
export interface ContentSlot<T> {
  hit: T | undefined;
  /**
   * Caches a value built after the slot was taken, from content read through this cache. It is
   * kept only while the version the slot was taken at is still the newest seen, so a value that
   * may hold a later write than its tag is never kept under the older tag.
   */
  put(value: T, bytes: number): void;
}

/**
 * A cached value without a shared build, for values whose making belongs to one request and cannot
 * be handed to others waiting for the same key (an Admin API execution: its limits, signal and
 * errors are the request's own). A miss builds nothing; the caller makes the value and may put it.
 */
export async function contentSlot<T>(key: string): Promise<ContentSlot<T>> {
  const version = await cacheableVersion();
  if (version === null) return { hit: undefined, put: () => {} };
  return {
    hit: hitAt(key, version)?.value as T | undefined,
    put: (value, bytes) => {
      if (state.seenVersion === version) store(key, { version, value, bytes, changesAt: null });
    },
  };
}

async function fresh<T>(key: string, build: () => Promise<CachedValue<T>>): Promise<T> {
  const version = await cacheableVersion();
  if (version === null) return (await build()).value;
  const hit = hitAt(key, version);
  if (hit) return hit.value as T;
  const buildKey = `${version}\u0000${key}`;
  let pending = building.get(buildKey) as Promise<T> | undefined;
  if (!pending) {
    pending = build().then((built) => {
      if (state.seenVersion === version) {
        store(key, { version, value: built.value, bytes: built.bytes, changesAt: built.changesAt?.getTime() ?? null });
      }
      return built.value;
    });
    building.set(buildKey, pending);
    const forget = () => {
      if (building.get(buildKey) === pending) building.delete(buildKey);
    };
    pending.then(forget, forget);
  }
  return pending;
}

/** Empties the cache (tests that swap the database underneath a running process). */
export function clearContentCache(): void {
  state.lastRead = null;
  entries.clear();
  building.clear();
  state.totalBytes = 0;
  state.seenVersion = null;
}

export function contentCacheStats(): { entries: number; bytes: number } {
  return { entries: entries.size, bytes: state.totalBytes };
}
