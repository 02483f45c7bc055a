// Decision: an unreachable shared store fails OPEN to per-instance (in-memory) limiting, adding at
// most one store timeout (≤ 500 ms, default 300 ms) to one request per cool-down.
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "@/lib/rate-limit/config";
import { RateLimiter } from "@/lib/rate-limit/limiter";
import { KvStore } from "@/lib/rate-limit/stores/kv";
import { RedisStore } from "@/lib/rate-limit/stores/redis";
import { ResilientStore } from "@/lib/rate-limit/stores/resilient";
import type { RateLimitStore } from "@/lib/rate-limit/types";
import { credential } from "./store-behaviour";

// A port nobody listens on, and a server that accepts connections but never answers.
let closedPort: number;
let silent: Server;
let silentPort: number;
const sockets = new Set<import("node:net").Socket>();
beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  silentPort = (silent.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
});

const cases: [string, () => RateLimitStore][] = [
  ["redis on a closed port", () => new RedisStore({ redis: `redis://127.0.0.1:${closedPort}`, timeoutMs: 300 })],
  ["redis that never answers", () => new RedisStore({ redis: `redis://127.0.0.1:${silentPort}`, timeoutMs: 300 })],
  ["@vercel/kv on a closed port", () => new KvStore({ url: `http://127.0.0.1:${closedPort}`, token: "t", timeoutMs: 300 })],
  ["@vercel/kv that never answers", () => new KvStore({ url: `http://127.0.0.1:${silentPort}`, token: "t", timeoutMs: 300 })],
];

describe.each(cases)("unreachable store: %s", (_, makeShared) => {
  it("admits within 1 s, keeps limiting per instance, logs once, and does not wait again during the cool-down", async () => {
    const logs: string[] = [];
    const shared = makeShared();
    const store = new ResilientStore({ shared, timeoutMs: 300, cooldownMs: 60_000, log: (m) => logs.push(m) });
    const limiter = new RateLimiter({ store, limits: { ...DEFAULT_LIMITS, perMinute: { mutations: 2, queries: 2 } } });
    const c = credential();
    try {
      let started = performance.now();
      const first = await limiter.begin({ credential: c, operationType: "mutations" });
      expect(performance.now() - started).toBeLessThan(1000);
      expect(first.admitted).toBe(true);
      expect(store.degraded).toBe(true);
      started = performance.now();
      if (first.admitted) expect((await first.finish(10)).runtime.balanceMs).toBe(59_990);
      const second = await limiter.begin({ credential: c, operationType: "mutations" });
      expect(second.admitted).toBe(true);
      if (second.admitted) await second.finish(0);
      // The fallback still enforces the limit in this instance.
      expect((await limiter.begin({ credential: c, operationType: "mutations" })).admitted).toBe(false);
      expect(performance.now() - started).toBeLessThan(100);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/^rate-limit: (redis|kv) store unreachable \(.+\); limiting per instance/);
    } finally {
      await store.close();
    }
  });
});

describe("recovery", () => {
  it("returns to the shared store after the cool-down and says so", async () => {
    let failing = true;
    const calls: string[] = [];
    const shared: RateLimitStore = {
      kind: "redis",
      admit: async (req) => {
        calls.push("admit");
        if (failing) throw new Error("connect ECONNREFUSED");
        return { admitted: true, denial: null, now: req.now, windowCount: 1, windowFreeAt: req.now + 60_000, active: 1, balanceMs: 60_000 };
      },
      complete: async (req) => {
        calls.push("complete");
        return { now: req.now, active: 0, balanceMs: 60_000 - req.durationMs };
      },
    };
    let t = 0;
    const logs: string[] = [];
    const store = new ResilientStore({ shared, cooldownMs: 5000, log: (m) => logs.push(m), monotonic: () => t });
    const limiter = new RateLimiter({ store, limits: DEFAULT_LIMITS });
    const c = credential();
    const a = await limiter.begin({ credential: c, operationType: "queries" });
    if (a.admitted) await a.finish(1); // released in the fallback, where it was admitted
    t = 4999;
    await limiter.begin({ credential: c, operationType: "queries" });
    expect(calls).toEqual(["admit"]);
    failing = false;
    t = 5000;
    const b = await limiter.begin({ credential: c, operationType: "queries" });
    if (b.admitted) await b.finish(1);
    expect(calls).toEqual(["admit", "admit", "complete"]);
    expect(store.degraded).toBe(false);
    expect(logs).toEqual([expect.stringMatching(/unreachable/), "rate-limit: redis store reachable again"]);
  });
});
