import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { rateLimitSettings } from "./config";
import { createStore, storeKind } from "./index";
import { MemoryStore } from "./stores/memory";
import { ResilientStore } from "./stores/resilient";

describe("store selection", () => {
  it("follows KV_REST_API_*, then REDIS_URL, then memory; RATE_LIMIT_STORE overrides", () => {
    expect(storeKind(parseEnv({}))).toBe("memory");
    expect(storeKind(parseEnv({ REDIS_URL: "redis://r:6379" }))).toBe("redis");
    expect(storeKind(parseEnv({ REDIS_URL: "redis://r:6379", KV_REST_API_URL: "https://kv.example", KV_REST_API_TOKEN: "t" }))).toBe("kv");
    expect(storeKind(parseEnv({ REDIS_URL: "redis://r:6379", RATE_LIMIT_STORE: "memory" }))).toBe("memory");
    expect(createStore(parseEnv({}))).toBeInstanceOf(MemoryStore);
  });
  it("wraps shared stores so an outage fails open", async () => {
    const store = createStore(parseEnv({ KV_REST_API_URL: "https://kv.example", KV_REST_API_TOKEN: "t" }));
    expect(store).toBeInstanceOf(ResilientStore);
    expect(store.kind).toBe("kv");
    await store.close?.();
  });
  it("refuses a forced store without its connection settings", () => {
    expect(() => parseEnv({ RATE_LIMIT_STORE: "redis" })).toThrow(/^REDIS_URL: is required with RATE_LIMIT_STORE=redis/);
    expect(() => parseEnv({ RATE_LIMIT_STORE: "kv" })).toThrow(/^KV_REST_API_URL: /);
  });
});

describe("settings", () => {
  it("defaults to the spec's limits", () => {
    expect(rateLimitSettings(parseEnv({}))).toEqual({
      limits: {
        perMinute: { mutations: 200, queries: 600 },
        windowMs: 60_000,
        maxInFlight: 10,
        runtimeBudgetMs: 60_000,
        leaseTtlMs: 40_000,
      },
      operationTimeoutMs: 30_000,
      storeTimeoutMs: 300,
      keyPrefix: "sh:rl",
    });
  });
  it("lets self-hosted deployments change the limits and the period", () => {
    const s = rateLimitSettings(
      parseEnv({ RATE_LIMIT_MUTATIONS: "20", RATE_LIMIT_QUERIES: "50", RATE_LIMIT_WINDOW_SECONDS: "10", RATE_LIMIT_MAX_IN_FLIGHT: "3", RATE_LIMIT_RUNTIME_MS: "5000" }),
    );
    expect(s.limits).toMatchObject({ perMinute: { mutations: 20, queries: 50 }, windowMs: 10_000, maxInFlight: 3, runtimeBudgetMs: 5000 });
  });
  it("bounds the store timeout so an outage adds at most 1 s", () => {
    expect(() => parseEnv({ RATE_LIMIT_STORE_TIMEOUT_MS: "501" })).toThrow(/^RATE_LIMIT_STORE_TIMEOUT_MS: must be at most 500/);
  });
});
