// Process cache of Admin API key rows, so verifying a key costs no query per request.
//
// Exact invalidation, the content cache's approach (lib/db/content-cache.ts): statement-level
// triggers bump the one row of CredentialVersion whenever anything verification reads changes (a
// key's secret, permissions, limits, expiry or revocation, a key deleted, its school disabled),
// whoever writes it. A cached row is used only at the version it was loaded at, and a process trusts
// its last read of the version for STOREFRONT_REVALIDATE_MS (1 s by default; 0 reads it for every
// request). So a key revoked anywhere fails within that bound on every instance, and at once on the
// instance that revoked it (revokeApiKey and school changes call forgetApiKeys()).
//
// What is cached is the row, never a verdict: every request still compares the whole key with the
// stored hash in constant time and checks revocation, expiry and the school against its own `now`.
// Unknown prefixes are never cached (a miss always asks the database), so the cache cannot be filled
// by guessing; its size is bounded anyway.
import { db, dbHandle, type DbHandle } from "../db/client";
import { env } from "../env";

/** What verifying a key needs: the row and its school's disabledAt. */
export interface CachedApiKey {
  id: string;
  schoolId: string;
  prefix: string;
  secretHash: string;
  permissions: string[];
  enforceLimits: boolean;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  schoolDisabledAt: Date | null;
}

/** Keys kept per process; least recently used beyond it are dropped (a few hundred bytes each). */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

interface State {
  entries: Map<string, { version: bigint; key: CachedApiKey }>;
  loading: Map<string, Promise<CachedApiKey | null>>;
  /** Highest version processed; entries of older versions are gone. */
  seen: bigint | null;
  lastRead: { version: bigint | null; startedAt: number } | null;
  inFlight: Promise<bigint | null> | null;
  queued: Promise<bigint | null> | null;
  /** When forgetApiKeys last ran (monotonic ms): reads and loads started before it are not trusted. */
  forgottenAt: number;
}

// On globalThis: Next.js bundles each route separately (/admin/graphql, /mcp) and they share one
// cache; keyed by the database handle, so a process that swaps its database (tests) starts empty.
const slot = globalThis as typeof globalThis & { __schoolhouseApiKeyCache?: WeakMap<DbHandle, State> };
const states = (slot.__schoolhouseApiKeyCache ??= new WeakMap());

function stateOf(handle: DbHandle): State {
  let s = states.get(handle);
  if (!s) {
    s = { entries: new Map(), loading: new Map(), seen: null, lastRead: null, inFlight: null, queued: null, forgottenAt: -Infinity };
    states.set(handle, s);
  }
  return s;
}

async function queryVersion(state: State): Promise<bigint | null> {
  const startedAt = performance.now();
  const row = await db().credentialVersion.findUnique({ where: { id: 1 }, select: { version: true } });
  const version = row?.version ?? null;
  if (startedAt > state.forgottenAt && (!state.lastRead || startedAt > state.lastRead.startedAt)) state.lastRead = { version, startedAt };
  return version;
}

/** A version read that started after this call (callers during an in-flight read share the next one). */
function readVersion(state: State): Promise<bigint | null> {
  if (!state.inFlight) {
    state.inFlight = queryVersion(state).finally(() => {
      state.inFlight = null;
    });
    return state.inFlight;
  }
  state.queued ??= state.inFlight
    .catch(() => undefined)
    .then(() => {
      state.queued = null;
      return readVersion(state);
    });
  return state.queued;
}

function trustedVersion(state: State): bigint | null | undefined {
  const last = state.lastRead;
  if (!last) return undefined;
  return performance.now() - last.startedAt < env().STOREFRONT_REVALIDATE_MS ? last.version : undefined;
}

async function loadKey(prefix: string): Promise<CachedApiKey | null> {
  const row = await db().apiKey.findUnique({ where: { prefix }, include: { school: { select: { disabledAt: true } } } });
  if (!row) return null;
  const { school, name: _name, createdAt: _createdAt, ...key } = row;
  return { ...key, schoolDisabledAt: school.disabledAt };
}

/** The key row with this prefix (from the cache when its version is current), or null. */
export async function findApiKey(prefix: string): Promise<CachedApiKey | null> {
  const state = stateOf(dbHandle());
  const trusted = trustedVersion(state);
  const version = trusted === undefined ? await readVersion(state) : trusted;
  // Without the row (a database restored from a dump that predates it) nothing can be trusted.
  if (version === null) return loadKey(prefix);
  if (state.seen === null || version > state.seen) {
    state.entries.clear();
    state.loading.clear();
    state.seen = version;
  } else if (version < state.seen) {
    return loadKey(prefix);
  }
  const hit = state.entries.get(prefix);
  if (hit && hit.version === version) {
    state.entries.delete(prefix);
    state.entries.set(prefix, hit);
    return hit.key;
  }
  const loadKeyName = `${version}\u0000${prefix}`;
  let pending = state.loading.get(loadKeyName);
  if (!pending) {
    const startedAt = performance.now();
    pending = loadKey(prefix).then((key) => {
      // A load that raced a newer version or a local forget is answered but not kept.
      if (key && state.seen === version && startedAt > state.forgottenAt) {
        state.entries.set(prefix, { version, key });
        for (const oldest of state.entries.keys()) {
          if (state.entries.size <= API_KEY_CACHE_MAX_ENTRIES) break;
          state.entries.delete(oldest);
        }
      }
      return key;
    });
    state.loading.set(loadKeyName, pending);
    const done = () => {
      if (state.loading.get(loadKeyName) === pending) state.loading.delete(loadKeyName);
    };
    pending.then(done, done);
  }
  return pending;
}

/**
 * Drops every cached key of this process and distrusts version reads already made: the next
 * verification reads the version and the row again. Called after this process changed a key or a
 * school, so the change holds on this instance at once (other instances: within the bound).
 */
export function forgetApiKeys(): void {
  const state = stateOf(dbHandle());
  state.entries.clear();
  state.loading.clear();
  state.lastRead = null;
  state.forgottenAt = performance.now();
}

/** Records on the cached row that lastUsedAt was written, so other requests skip the write. */
export function noteApiKeyUsed(key: CachedApiKey, at: Date): void {
  key.lastUsedAt = at;
}

export function apiKeyCacheStats(): { entries: number } {
  return { entries: stateOf(dbHandle()).entries.size };
}
