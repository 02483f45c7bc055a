// Process caches of credential rows (Admin API keys, OAuth clients), so verifying a credential
// costs no query per request (docs/benchmarks.md, "Admin API" and "Writes").
//
// Exact invalidation, the content cache's approach (lib/db/content-cache.ts): statement-level
// triggers bump the one row of CredentialVersion whenever anything verification reads changes,
// whoever writes it (migrations 15a_credential_version, 15c_oauth_client_version). A cached row is
// used only at the version it was loaded at, and a process trusts its last read of the version for
// STOREFRONT_REVALIDATE_MS (1 s by default; 0 reads it for every request). So a credential revoked
// anywhere fails within that bound on every instance, and at once on the instance that changed it
// (the verbs that change one call the cache's forget()).
//
// What is cached is the row, never a verdict: every request still compares the presented secret
// with the stored hash in constant time and checks revocation and expiry against its own `now`.
// Unknown keys are never cached (a miss always asks the database), so a cache cannot be filled by
// guessing; its size is bounded anyway (least recently used dropped).
import { LruMap } from "../lru-map";
import { dbHandle, type DbHandle } from "./client";
import { rawQuery } from "./raw";
import { env } from "../env";

export interface CredentialCache<V> {
  /** The row for this key (from the cache when its version is current), or null. */
  find(key: string): Promise<V | null>;
  /**
   * Drops every cached row of this process and distrusts version reads already made, so a change
   * this process just made holds on this instance at once.
   */
  forget(): void;
  stats(): { entries: number };
}

export interface CredentialCacheOptions<V> {
  /** Names the cache on globalThis: Next.js bundles each route separately and they share one cache. */
  name: string;
  maxEntries: number;
  /**
   * Reads the row. A loader that reads CredentialVersion in the same statement returns it as
   * `version` (one snapshot): the row is then kept only when that is the version this process trusts.
   */
  load(key: string): Promise<{ row: V | null; version?: bigint | null }>;
}

interface State<V> {
  entries: LruMap<string, { version: bigint; row: V }>;
  loading: Map<string, Promise<V | null>>;
  /** Highest version processed; entries of older versions are gone. */
  seen: bigint | null;
  lastRead: { version: bigint | null; startedAt: number } | null;
  inFlight: Promise<bigint | null> | null;
  queued: Promise<bigint | null> | null;
  /** When forget() last ran (monotonic ms): reads and loads started before it are not trusted. */
  forgottenAt: number;
}

export const toVersion = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(String(v)));

const READ_VERSION = `SELECT "version"::text AS "version" FROM "CredentialVersion" WHERE "id" = 1`;

export function createCredentialCache<V>(options: CredentialCacheOptions<V>): CredentialCache<V> {
  // Keyed by the database handle, so a process that swaps its database (tests) starts empty.
  const slot = globalThis as typeof globalThis & { __schoolhouseCredentialCaches?: Map<string, WeakMap<DbHandle, State<V>>> };
  const caches = (slot.__schoolhouseCredentialCaches ??= new Map());
  let states = caches.get(options.name);
  if (!states) caches.set(options.name, (states = new WeakMap()));
  const byHandle = states;

  function stateOf(handle: DbHandle): State<V> {
    let s = byHandle.get(handle);
    if (!s) {
      s = { entries: new LruMap(options.maxEntries), loading: new Map(), seen: null, lastRead: null, inFlight: null, queued: null, forgottenAt: -Infinity };
      byHandle.set(handle, s);
    }
    return s;
  }

  async function queryVersion(state: State<V>): Promise<bigint | null> {
    const startedAt = performance.now();
    const [row] = await rawQuery<{ version: string }>(READ_VERSION, [], { name: "credential-version", readOnly: true });
    const version = toVersion(row?.version);
    if (startedAt > state.forgottenAt && (!state.lastRead || startedAt > state.lastRead.startedAt)) state.lastRead = { version, startedAt };
    return version;
  }

  /** A version read that started after this call (callers during an in-flight read share the next one). */
  function readVersion(state: State<V>): Promise<bigint | null> {
    if (!state.inFlight) {
      const read = queryVersion(state).finally(() => {
        if (state.inFlight === read) state.inFlight = null;
      });
      state.inFlight = read;
      return read;
    }
    state.queued ??= state.inFlight
      .catch(() => undefined)
      .then(() => {
        state.queued = null;
        return readVersion(state);
      });
    return state.queued;
  }

  function trustedVersion(state: State<V>): bigint | null | undefined {
    const last = state.lastRead;
    if (!last) return undefined;
    return performance.now() - last.startedAt < env().STOREFRONT_REVALIDATE_MS ? last.version : undefined;
  }

  async function find(key: string): Promise<V | null> {
    const state = stateOf(dbHandle());
    const trusted = trustedVersion(state);
    const version = trusted === undefined ? await readVersion(state) : trusted;
    // Without the version row (a database restored from a dump that predates it) nothing is trusted.
    if (version === null) return (await options.load(key)).row;
    if (state.seen === null || version > state.seen) {
      state.entries.clear();
      state.loading.clear();
      state.seen = version;
    } else if (version < state.seen) {
      return (await options.load(key)).row;
    }
    const hit = state.entries.get(key);
    if (hit && hit.version === version) return hit.row;
    const loadName = `${version}\u0000${key}`;
    let pending = state.loading.get(loadName);
    if (!pending) {
      const startedAt = performance.now();
      pending = options.load(key).then((loaded) => {
        // A load that raced a newer version or a local forget is answered but not kept.
        const current = loaded.version === undefined || loaded.version === version;
        if (loaded.row && current && state.seen === version && startedAt > state.forgottenAt) {
          state.entries.set(key, { version, row: loaded.row });
        }
        return loaded.row;
      });
      state.loading.set(loadName, pending);
      const done = () => {
        if (state.loading.get(loadName) === pending) state.loading.delete(loadName);
      };
      pending.then(done, done);
    }
    return pending;
  }

  return {
    find,
    forget() {
      const state = stateOf(dbHandle());
      state.entries.clear();
      state.loading.clear();
      state.lastRead = null;
      state.forgottenAt = performance.now();
    },
    stats: () => ({ entries: stateOf(dbHandle()).entries.size }),
  };
}
