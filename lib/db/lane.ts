// Which credential the current database work is done for, and whether it was cancelled: carried
// through async calls (AsyncLocalStorage) from the request pipeline down to the database gate
// (lib/db/fair-gate.ts), which shares connections per lane and refuses work of a cancelled one.
import { AsyncLocalStorage } from "node:async_hooks";

export interface DbLane {
  /** Credential key (`api_key:<id>`); work outside any credential runs in the shared lane "". */
  key: string;
  /** Aborted when the operation this work belongs to timed out or its client left. */
  signal?: AbortSignal;
}

// One store per process: Next.js bundles route handlers and instrumentation separately, and the
// gate (made once per process with the db client) must see the lane a route handler set.
const slot = globalThis as typeof globalThis & { __schoolhouseDbLane?: AsyncLocalStorage<DbLane> };
const storage = (slot.__schoolhouseDbLane ??= new AsyncLocalStorage<DbLane>());

export const SHARED_LANE = "";

export function currentDbLane(): DbLane | undefined {
  return storage.getStore();
}

/** Runs `fn` with database work attributed to `key` (a credential). */
export function withDbLane<T>(key: string, fn: () => T): T {
  return storage.run({ key, signal: currentDbLane()?.signal }, fn);
}

/** Runs `fn` so that its database work is refused once `signal` aborts (same lane). */
export function withDbCancellation<T>(signal: AbortSignal, fn: () => T): T {
  const parent = currentDbLane()?.signal;
  const combined = parent ? AbortSignal.any([parent, signal]) : signal;
  return storage.run({ key: currentDbLane()?.key ?? SHARED_LANE, signal: combined }, fn);
}

/**
 * Runs `fn` in the same lane but not cancellable: bookkeeping that must finish even after the
 * operation it belongs to was cut (e.g. recording an Idempotency-Key's outcome).
 */
export function withoutDbCancellation<T>(fn: () => T): T {
  return storage.run({ key: currentDbLane()?.key ?? SHARED_LANE }, fn);
}
