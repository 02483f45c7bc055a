import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { RedisStore, redisClientOptions } from "@/lib/rate-limit/stores/redis";
import { RateLimiter } from "@/lib/rate-limit/limiter";
import { DEFAULT_LIMITS } from "@/lib/rate-limit/config";
import { credential, storeBehaviour } from "../integration/rate-limit/store-behaviour";
import { keysUnder, redisUrl, testPrefix } from "./redis-test-env";

// Clients with the store's own options (auto-pipelining included), as a RedisStore built from a URL has.
const clientOptions = redisClientOptions(10_000);
const redis = new Redis(redisUrl(), clientOptions);
const prefix = testPrefix();
afterAll(async () => {
  const keys = await keysUnder(redis, prefix);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

storeBehaviour("redis (caller clock)", () => new RedisStore({ redis, prefix, callerClock: true }));

describe("redis store on Redis TIME", () => {
  const short = { ...DEFAULT_LIMITS, perMinute: { mutations: 3, queries: 3 }, windowMs: 1000, runtimeBudgetMs: 1000 };

  it("takes time from Redis and reopens the window when the oldest request leaves it", async () => {
    // The limiter's own clock is deliberately wrong: the store must not use it.
    const limiter = new RateLimiter({ store: new RedisStore({ redis, prefix }), limits: short, clock: () => 0 });
    const c = credential();
    for (let i = 0; i < 3; i++) {
      const a = await limiter.begin({ credential: c, operationType: "mutations" });
      expect(a.admitted).toBe(true);
      if (a.admitted) await a.finish(0);
    }
    const refused = await limiter.begin({ credential: c, operationType: "mutations" });
    expect(refused.admitted).toBe(false);
    expect(Math.abs(refused.state.now - Date.now())).toBeLessThan(2000);
    const waitMs = refused.state.perMinute.freeAt! - refused.state.now;
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(1000);
    await new Promise((r) => setTimeout(r, waitMs + 20));
    expect((await limiter.begin({ credential: c, operationType: "mutations" })).admitted).toBe(true);
  });

  it("gives every key a TTL", async () => {
    const keyPrefix = testPrefix();
    const limiter = new RateLimiter({ store: new RedisStore({ redis, prefix: keyPrefix }), limits: DEFAULT_LIMITS });
    const c = credential();
    for (const operationType of ["mutations", "queries"] as const) {
      const a = await limiter.begin({ credential: c, operationType });
      if (a.admitted) await a.finish(1234);
    }
    // Held open so the lease set exists (Redis drops empty sets).
    const open = await limiter.begin({ credential: c, operationType: "queries" });
    expect(open.admitted).toBe(true);
    const keys = await keysUnder(redis, keyPrefix);
    expect(keys.sort().map((k) => k.slice(k.lastIndexOf(":") + 1))).toEqual(["m", "ops", "q", "rt"]);
    // Windows live one window, leases one lease TTL, the bucket until it is full again (+1 s).
    const bound = { m: DEFAULT_LIMITS.windowMs, q: DEFAULT_LIMITS.windowMs, ops: DEFAULT_LIMITS.leaseTtlMs, rt: 2 * 1234 + 1000 };
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(bound[key.slice(key.lastIndexOf(":") + 1) as keyof typeof bound]);
    }
    await redis.del(...keys);
  });

  it("admits exactly the limit when two instances race on one Redis", async () => {
    const other = new Redis(redisUrl(), clientOptions);
    try {
      const keyPrefix = testPrefix();
      const limits = { ...DEFAULT_LIMITS, maxInFlight: 1000 };
      const a = new RateLimiter({ store: new RedisStore({ redis, prefix: keyPrefix }), limits });
      const b = new RateLimiter({ store: new RedisStore({ redis: other, prefix: keyPrefix }), limits });
      const c = credential();
      const results = await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).begin({ credential: c, operationType: "mutations" })),
      );
      expect(results.filter((r) => r.admitted)).toHaveLength(200);
      await redis.del(...(await keysUnder(redis, keyPrefix)));
    } finally {
      other.disconnect();
    }
  });

  it("makes one round trip to admit and one to release and charge", async () => {
    const client = new Redis(redisUrl(), clientOptions);
    let sent = 0;
    const send = client.sendCommand.bind(client);
    client.sendCommand = (...args: Parameters<typeof send>) => {
      sent++;
      return send(...args);
    };
    try {
      const keyPrefix = testPrefix();
      const limiter = new RateLimiter({ store: new RedisStore({ redis: client, prefix: keyPrefix }), limits: DEFAULT_LIMITS });
      const c = credential();
      const warm = await limiter.begin({ credential: c, operationType: "queries" }); // loads the scripts
      if (warm.admitted) await warm.finish(0);
      const before = sent;
      for (let i = 0; i < 20; i++) {
        const op = await limiter.begin({ credential: c, operationType: "queries" });
        if (op.admitted) await op.finish(1);
      }
      expect(sent - before).toBe(40);
      await redis.del(...(await keysUnder(redis, keyPrefix)));
    } finally {
      client.disconnect();
    }
  });
});

