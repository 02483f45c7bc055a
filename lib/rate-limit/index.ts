// The Admin API's rate limiter, built once per process from the environment.
import { env, type Env } from "../env";
import { EXECUTING_PER_CREDENTIAL, rateLimitSettings } from "./config";
import { RateLimiter } from "./limiter";
import { KvStore } from "./stores/kv";
import { MemoryStore } from "./stores/memory";
import { RedisStore } from "./stores/redis";
import { ResilientStore } from "./stores/resilient";
import type { RateLimitStore } from "./types";

import { rateLimitPlugin } from "./yoga-plugin";

export { RateLimiter } from "./limiter";
export { rateLimitPlugin, withRateLimitState } from "./yoga-plugin";
export { operationTypeOfDocument } from "./operation-type";
export * from "./wire";
export type { RateLimitState } from "./state";
export type { Limits, OperationType, RateLimitStore } from "./types";

export type StoreKind = "memory" | "redis" | "kv";

/** auto: KV when KV_REST_API_URL/TOKEN are set (Vercel), else Redis with REDIS_URL, else memory. */
export function storeKind(e: Env): StoreKind {
  if (e.RATE_LIMIT_STORE !== "auto") return e.RATE_LIMIT_STORE;
  if (e.KV_REST_API_URL && e.KV_REST_API_TOKEN) return "kv";
  if (e.REDIS_URL) return "redis";
  return "memory";
}

export function createStore(e: Env): RateLimitStore {
  const { storeTimeoutMs, keyPrefix } = rateLimitSettings(e);
  switch (storeKind(e)) {
    case "memory":
      return new MemoryStore();
    case "redis":
      return new ResilientStore({
        shared: new RedisStore({ redis: e.REDIS_URL!, prefix: keyPrefix, timeoutMs: storeTimeoutMs }),
        timeoutMs: storeTimeoutMs,
      });
    case "kv":
      return new ResilientStore({
        shared: new KvStore({ url: e.KV_REST_API_URL!, token: e.KV_REST_API_TOKEN!, prefix: keyPrefix, timeoutMs: storeTimeoutMs }),
        timeoutMs: storeTimeoutMs,
      });
  }
}

export function createRateLimiterFromEnv(e: Env = env()): RateLimiter {
  const settings = rateLimitSettings(e);
  return new RateLimiter({
    store: createStore(e),
    limits: settings.limits,
    operationTimeoutMs: settings.operationTimeoutMs,
    maxExecuting: EXECUTING_PER_CREDENTIAL,
  });
}

// One per process, shared by every bundle that imports this module (like the db client).
const slot = globalThis as unknown as { __schoolhorateLimitPluginer?: RateLimiter };

export function adminRateLimiter(): RateLimiter {
  slot.__schoolhorateLimitPluginer ??= createRateLimiterFromEnv();
  return slot.__schoolhorateLimitPluginer;
}

/** Test hook: serve the Admin API with this limiter (e.g. on a store without the outage fallback). */
export function setAdminRateLimiter(limiter: RateLimiter): void {
  slot.__schoolhorateLimitPluginer = limiter;
}

/** Test hook: drop the process's limiter (its state) so the next call rebuilds it from env. */
export async function resetAdminRateLimiter(): Promise<void> {
  await slot.__schoolhorateLimitPluginer?.store.close?.();
  slot.__schoolhorateLimitPluginer = undefined;
}

/** The Admin API's plugin: limits per `context.credential`, on the process's limiter (built on first use). */
export function adminRateLimitPlugin<TContext extends object = object>() {
  return rateLimitPlugin<TContext>({ limiter: adminRateLimiter });
}
