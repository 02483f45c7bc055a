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
import { now } from "../clock";
import { db } from "./client";
import { env } from "../env";

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

const entries = new Map<string, Entry>();
const building = new Map<string, Promise<unknown>>();
let totalBytes = 0;
let seenVersion: bigint | null = null;

let inFlight: Promise<bigint | null> | null = null;
let queued: Promise<bigint | null> | null = null;

/** The last successful read, and when (monotonic ms) it started. */
let lastRead: { version: bigint | null; startedAt: number } | null = null;

/** Versions only grow; null means the row is missing and nothing may be cached. */
async function queryVersion(): Promise<bigint | null> {
  const startedAt = performance.now();
  const row = await db().contentVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  const version = row?.version ?? null;
  if (!lastRead || startedAt > lastRead.startedAt) lastRead = { version, startedAt };
  return version;
}

/** The last read's version while it is recent enough to trust, else undefined. */
function trustedVersion(): bigint | null | undefined {
  if (!lastRead) return undefined;
  return performance.now() - lastRead.startedAt < env().STOREFRONT_REVALIDATE_MS ? lastRead.version : undefined;
}

/**
 * The content version as of a read that started after this call. A read already in flight may
 * have started before a write this caller depends on, so callers arriving during one wait for
 * the next; everyone arriving meanwhile shares that next read.
 */
export function readContentVersion(): Promise<bigint | null> {
  if (!inFlight) {
    inFlight = queryVersion().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }
  if (!queued) {
    queued = inFlight
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return readContentVersion();
      });
  }
  return queued;
}

function drop(key: string): void {
  const e = entries.get(key);
  if (!e) return;
  entries.delete(key);
  totalBytes -= e.bytes;
}

function store(key: string, entry: Entry): void {
  drop(key);
  if (entry.bytes > CONTENT_CACHE_MAX_BYTES / 4) return;
  entries.set(key, entry);
  totalBytes += entry.bytes;
  for (const oldest of entries.keys()) {
    if (totalBytes <= CONTENT_CACHE_MAX_BYTES) break;
    drop(oldest);
  }
}

/**
 * The cached value for `key`, or `build()`'s result, cached until the content version changes or
 * the value's `changesAt` passes. Concurrent misses for one key share one build.
 */
export async function cachedContent<T>(key: string, build: () => Promise<CachedValue<T>>): Promise<T> {
  const trusted = trustedVersion();
  const version = trusted === undefined ? await readContentVersion() : trusted;
  // Without the row (a database restored from a dump that predates it) nothing can be trusted.
  if (version === null) return (await build()).value;
  if (seenVersion === null || version > seenVersion) {
    // Every page may depend on the write; entries of the old version are never valid again.
    entries.clear();
    building.clear();
    totalBytes = 0;
    seenVersion = version;
  } else if (version < seenVersion) {
    // A read that finished before a newer one was processed: build, but cache nothing old.
    return (await build()).value;
  }
  const hit = entries.get(key);
  if (hit && hit.version === version && (hit.changesAt === null || now().getTime() < hit.changesAt)) {
    // Re-insert so Map order is least recently used first.
    entries.delete(key);
    entries.set(key, hit);
    return hit.value as T;
  }
  const buildKey = `${version}\u0000${key}`;
  let pending = building.get(buildKey) as Promise<T> | undefined;
  if (!pending) {
    pending = build().then((built) => {
      if (seenVersion === version) {
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
  lastRead = null;
  entries.clear();
  building.clear();
  totalBytes = 0;
  seenVersion = null;
}

export function contentCacheStats(): { entries: number; bytes: number } {
  return { entries: entries.size, bytes: totalBytes };
}
