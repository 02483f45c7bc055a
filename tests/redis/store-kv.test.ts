import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { KvStore } from "@/lib/rate-limit/stores/kv";
import { RateLimiter } from "@/lib/rate-limit/limiter";
import { DEFAULT_LIMITS } from "@/lib/rate-limit/config";
import { startUpstashRestServer, type UpstashRestServer } from "../helpers/upstash-rest-server";
import { credential, storeBehaviour } from "../integration/rate-limit/store-behaviour";
import { keysUnder, redisUrl, testPrefix } from "./redis-test-env";

let server: UpstashRestServer;
const prefix = testPrefix();
const redis = new Redis(redisUrl());

beforeAll(async () => {
  server = await startUpstashRestServer({ redisUrl: redisUrl() });
});
afterAll(async () => {
  await server.close();
  const keys = await keysUnder(redis, prefix);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

// These tests are about the limiter's semantics over KV; the store's 500 ms production deadline is
// tested in tests/integration/rate-limit/unreachable-store.test.ts. On a loaded CI machine a burst
// of 1,000 operations through the test REST server can exceed it, so they get a generous deadline.
const TIMEOUT_MS = 10_000;

storeBehaviour("@vercel/kv (caller clock)", () => new KvStore({ url: server.url, token: server.token, prefix, callerClock: true, timeoutMs: TIMEOUT_MS }));

describe("@vercel/kv store on Redis TIME", () => {
  it("takes time from Redis, not the instance", async () => {
    const limits = { ...DEFAULT_LIMITS, perMinute: { mutations: 2, queries: 2 }, windowMs: 1000, runtimeBudgetMs: 1000 };
    const limiter = new RateLimiter({ store: new KvStore({ url: server.url, token: server.token, prefix, timeoutMs: TIMEOUT_MS }), limits, clock: () => 0 });
    const c = credential();
    for (let i = 0; i < 2; i++) {
      const a = await limiter.begin({ credential: c, operationType: "queries" });
      if (a.admitted) await a.finish(0);
    }
    const refused = await limiter.begin({ credential: c, operationType: "queries" });
    expect(refused.admitted).toBe(false);
    expect(Math.abs(refused.state.now - Date.now())).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, refused.state.perMinute.freeAt! - refused.state.now + 20));
    expect((await limiter.begin({ credential: c, operationType: "queries" })).admitted).toBe(true);
  });

  it("makes one HTTP round trip to admit and one to release and charge", async () => {
    const limiter = new RateLimiter({ store: new KvStore({ url: server.url, token: server.token, prefix, timeoutMs: TIMEOUT_MS }), limits: DEFAULT_LIMITS });
    const c = credential();
    const warm = await limiter.begin({ credential: c, operationType: "mutations" });
    if (warm.admitted) await warm.finish(0);
    const before = server.requests;
    for (let i = 0; i < 10; i++) {
      const op = await limiter.begin({ credential: c, operationType: "mutations" });
      if (op.admitted) await op.finish(1);
    }
    expect(server.requests - before).toBe(20);
  });

  it("fails with a clear error on a wrong token", async () => {
    const store = new KvStore({ url: server.url, token: "wrong", prefix });
    const limiter = new RateLimiter({ store, limits: DEFAULT_LIMITS });
    await expect(limiter.begin({ credential: credential(), operationType: "queries" })).rejects.toThrow(/Unauthorized/);
  });
});
