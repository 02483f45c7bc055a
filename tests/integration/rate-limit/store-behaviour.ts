// The behavioural suite every store must pass (memory here; Redis and @vercel/kv in tests/redis).
// Time is driven by the test: the memory store takes the caller's clock, the Redis stores are
// built with `callerClock` for these cases (tests/redis also checks them on Redis TIME).
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Credential } from "@/lib/credentials/credential";
import { RateLimiter } from "@/lib/rate-limit/limiter";
import {
  operationsStartable,
  perMinuteRemaining,
  runtimeRemainingMs,
  runtimeResetSeconds,
  type RateLimitState,
} from "@/lib/rate-limit/state";
import type { Limits, RateLimitStore } from "@/lib/rate-limit/types";
import { budgetHeaders, ConcurrencyLimitedError, RateLimitExceededError, RuntimeLimitedError } from "@/lib/rate-limit/wire";
import { DEFAULT_LIMITS } from "@/lib/rate-limit/config";

export const T0 = Date.UTC(2026, 10, 21, 12, 0, 0);

export function credential(overrides: Partial<Credential> = {}): Credential {
  return { kind: "api_key", id: randomUUID(), schoolId: randomUUID(), permissions: [], enforceLimits: true, ...overrides };
}

export interface Harness {
  limiter: RateLimiter;
  at(ms: number): void;
  advance(ms: number): void;
}

export function harness(store: RateLimitStore, limits: Limits = DEFAULT_LIMITS): Harness {
  let t = T0;
  const limiter = new RateLimiter({ store, limits, clock: () => t });
  return { limiter, at: (ms) => (t = ms), advance: (ms) => (t += ms) };
}

async function admitN(h: Harness, c: Credential, operationType: "mutations" | "queries", n: number) {
  const states: RateLimitState[] = [];
  for (let i = 0; i < n; i++) {
    const a = await h.limiter.begin({ credential: c, operationType });
    if (!a.admitted) throw new Error(`request ${i + 1} refused: ${a.error.message}`);
    states.push(await a.finish(0));
  }
  return states;
}

export function storeBehaviour(name: string, makeStore: () => RateLimitStore) {
  describe(`rate-limit store behaviour: ${name}`, () => {
    for (const [type, limit, one] of [
      ["mutations", 200, "mutation"],
      ["queries", 600, "query"],
    ] as const) {
      it(`refuses the ${limit + 1}st ${one} within 60 s and admits one more exactly when the oldest leaves`, async () => {
        const h = harness(makeStore());
        const c = credential();
        // Spread over 30 s: the oldest at T0, the newest at T0 + 29.95 s.
        for (let i = 0; i < limit; i++) {
          h.at(T0 + Math.floor((i * 30_000) / limit));
          const a = await h.limiter.begin({ credential: c, operationType: type });
          expect(a.admitted, `request ${i + 1}`).toBe(true);
          if (a.admitted) await a.finish(0);
        }
        h.at(T0 + 45_000);
        const refused = await h.limiter.begin({ credential: c, operationType: type });
        expect(refused.admitted).toBe(false);
        if (refused.admitted) return;
        expect(refused.error).toBeInstanceOf(RateLimitExceededError);
        const err = refused.error as RateLimitExceededError;
        expect(err.extensions()).toEqual({ operation_type: type, limit, retry_after: 15, reset_at: (T0 + 60_000) / 1000 });
        expect(err.headers()).toEqual({ "Retry-After": "15", "X-RateLimit-Limit": String(limit), "X-RateLimit-Reset": String((T0 + 60_000) / 1000) });

        // 1 ms before the oldest is 60 s old: still refused (and refusals do not count).
        for (let i = 0; i < 5; i++) {
          h.at(T0 + 59_999);
          const again = await h.limiter.begin({ credential: c, operationType: type });
          expect(again.admitted).toBe(false);
          if (!again.admitted) expect((again.error as RateLimitExceededError).retryAfter).toBe(1);
        }
        h.at(T0 + 60_000);
        const next = await h.limiter.begin({ credential: c, operationType: type });
        expect(next.admitted).toBe(true);
        if (next.admitted) await next.finish(0);
        const after = await h.limiter.begin({ credential: c, operationType: type });
        expect(after.admitted).toBe(false);
      });
    }

    it("does not double the limit for a burst across a minute boundary (exact sliding window)", async () => {
      const h = harness(makeStore());
      const c = credential();
      h.at(T0 + 59_900);
      await admitN(h, c, "mutations", 200);
      h.at(T0 + 60_100); // a fixed window would have reset here
      expect((await h.limiter.begin({ credential: c, operationType: "mutations" })).admitted).toBe(false);
      h.at(T0 + 119_899);
      expect((await h.limiter.begin({ credential: c, operationType: "mutations" })).admitted).toBe(false);
      h.at(T0 + 119_900);
      await admitN(h, c, "mutations", 200);
      expect((await h.limiter.begin({ credential: c, operationType: "mutations" })).admitted).toBe(false);
    });

    it("counts requests made in the same millisecond separately", async () => {
      const h = harness(makeStore(), { ...DEFAULT_LIMITS, maxInFlight: 1000 });
      const c = credential();
      const all = await Promise.all(Array.from({ length: 210 }, () => h.limiter.begin({ credential: c, operationType: "mutations" })));
      expect(all.filter((a) => a.admitted)).toHaveLength(200);
      await Promise.all(all.map((a) => (a.admitted ? a.finish(0) : null)));
    });

    it("keeps independent counters per credential and per operation type", async () => {
      const h = harness(makeStore());
      const a = credential();
      const b = credential();
      const sameIdOtherKind = { ...a, kind: "oauth_app" as const };
      await admitN(h, a, "mutations", 200);
      expect((await h.limiter.begin({ credential: a, operationType: "mutations" })).admitted).toBe(false);
      const q = await admitN(h, a, "queries", 3);
      expect(q[2]!.perMinute).toMatchObject({ used: 3, limit: 600 });
      const other = await admitN(h, b, "mutations", 1);
      expect(other[0]!.perMinute).toMatchObject({ used: 1, limit: 200 });
      expect((await admitN(h, sameIdOtherKind, "mutations", 1))[0]!.perMinute.used).toBe(1);
    });

    it("refuses the 11th concurrent operation with Retry-After 1 while ten run, and admits once one finishes", async () => {
      const h = harness(makeStore());
      const c = credential();
      const running = [];
      for (let i = 0; i < 10; i++) {
        const a = await h.limiter.begin({ credential: c, operationType: "queries" });
        expect(a.admitted).toBe(true);
        expect(operationsStartable(a.state)).toBe(9 - i);
        running.push(a);
      }
      const eleventh = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(eleventh.admitted).toBe(false);
      if (eleventh.admitted) return;
      expect(eleventh.error).toBeInstanceOf(ConcurrencyLimitedError);
      expect(eleventh.error.toJSON().extensions).toEqual({ code: "RATE_LIMITED", limiter: "active_operations" });
      expect(eleventh.error.headers()).toEqual({ "Retry-After": "1" });
      expect(budgetHeaders(eleventh.state).RateLimit).toBe('"active-operations";r=0');
      // The refused one is not counted in the window either.
      expect(eleventh.state.perMinute.used).toBe(10);

      const first = running.shift()!;
      if (!first.admitted) return;
      const after = await first.finish(5);
      expect(operationsStartable(after)).toBe(1);
      const twelfth = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(twelfth.admitted).toBe(true);
      for (const a of [...running, twelfth]) if (a.admitted) await a.finish(0);
    });

    it("returns every slot after 1,000 mixed successes, errors and aborts", async () => {
      const h = harness(makeStore(), { ...DEFAULT_LIMITS, perMinute: { mutations: 10_000, queries: 10_000 } });
      const c = credential();
      let inFlight = 0;
      let maxSeen = 0;
      const work = Array.from({ length: 1000 }, async (_, i) => {
        const abort = new AbortController();
        const outcome = await h.limiter.run({ credential: c, operationType: i % 2 ? "mutations" : "queries", signal: abort.signal }, async () => {
          inFlight++;
          maxSeen = Math.max(maxSeen, inFlight);
          try {
            await new Promise((r) => setTimeout(r, i % 7));
            if (i % 3 === 1) throw new Error("resolver failed");
            if (i % 3 === 2) {
              abort.abort();
              await new Promise((r) => setTimeout(r, 5));
            }
            return i;
          } finally {
            inFlight--;
          }
        });
        return outcome.outcome;
      });
      const outcomes = await Promise.all(work);
      const count = (o: string) => outcomes.filter((x) => x === o).length;
      expect(count("completed") + count("failed") + count("aborted") + count("refused")).toBe(1000);
      expect(count("failed")).toBeGreaterThan(0);
      expect(count("aborted")).toBeGreaterThan(0);
      expect(count("refused")).toBeGreaterThan(0); // more than ten at once were attempted
      expect(maxSeen).toBeLessThanOrEqual(10);
      const probe = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(probe.admitted).toBe(true);
      if (probe.admitted) expect((await probe.finish(0)).activeOperations.active).toBe(0);
    });

    it("expires a lease that is never released after the lease TTL", async () => {
      const limits = { ...DEFAULT_LIMITS, leaseTtlMs: 40_000 };
      const h = harness(makeStore(), limits);
      const c = credential();
      for (let i = 0; i < 10; i++) expect((await h.limiter.begin({ credential: c, operationType: "queries" })).admitted).toBe(true);
      h.advance(39_999);
      expect((await h.limiter.begin({ credential: c, operationType: "queries" })).admitted).toBe(false);
      h.advance(1);
      const a = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(a.admitted).toBe(true);
      expect(a.state.activeOperations.active).toBe(1);
    });

    it("charges execution time into debt and refills continuously", async () => {
      const h = harness(makeStore());
      const c = credential();
      const first = await h.limiter.begin({ credential: c, operationType: "queries" });
      if (!first.admitted) throw new Error("refused");
      expect(runtimeRemainingMs(first.state)).toBe(60_000);
      const charged = await first.finish(70_000);
      expect(charged.runtime.balanceMs).toBe(-10_000);
      expect(runtimeRemainingMs(charged)).toBe(0);
      expect(runtimeResetSeconds(charged)).toBe(70);
      expect(budgetHeaders(charged)).toMatchObject({ "RateLimit-Limit": "60000", "RateLimit-Remaining": "0", "RateLimit-Reset": "70" });

      h.advance(4_000);
      const refused = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(refused.admitted).toBe(false);
      if (refused.admitted) return;
      expect(refused.error).toBeInstanceOf(RuntimeLimitedError);
      expect(refused.error.toJSON().extensions).toEqual({ code: "RATE_LIMITED", limiter: "runtime", retry_after_ms: 6_001 });
      expect(refused.error.headers()).toEqual({ "Retry-After": "7" });
      expect(refused.state.runtime.balanceMs).toBe(-6_000);

      h.advance(6_000); // balance 0: not yet positive
      expect((await h.limiter.begin({ credential: c, operationType: "queries" })).admitted).toBe(false);
      h.advance(1);
      const ok = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(ok.admitted).toBe(true);
      if (!ok.admitted) return;
      const after = await ok.finish(500);
      expect(after.runtime.balanceMs).toBe(-499);

      h.advance(30_499); // 30 s of refill at 1 ms/ms
      const mid = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(mid.state.runtime.balanceMs).toBe(30_000);
      if (mid.admitted) await mid.finish(0);
      h.advance(3_600_000);
      const full = await h.limiter.begin({ credential: c, operationType: "queries" });
      expect(full.state.runtime.balanceMs).toBe(60_000); // capped at the budget
      expect(runtimeResetSeconds(full.state)).toBe(0);
    });

    it("counts and reports but refuses nothing when enforcement is off", async () => {
      const h = harness(makeStore(), { ...DEFAULT_LIMITS, perMinute: { mutations: 5, queries: 5 } });
      const c = credential({ enforceLimits: false });
      const running = [];
      for (let i = 0; i < 12; i++) {
        const a = await h.limiter.begin({ credential: c, operationType: "mutations" });
        expect(a.admitted).toBe(true);
        running.push(a);
      }
      const last = running.at(-1)!;
      expect(last.state.enforced).toBe(false);
      expect(last.state.perMinute.used).toBe(12);
      expect(perMinuteRemaining(last.state)).toBe(0);
      expect(last.state.activeOperations.active).toBe(12);
      expect(budgetHeaders(last.state).RateLimit).toBe('"active-operations";r=0');
      for (const a of running) if (a.admitted) await a.finish(10_000);
      const debt = await h.limiter.begin({ credential: c, operationType: "mutations" });
      expect(debt.admitted).toBe(true);
      expect(debt.state.runtime.balanceMs).toBe(-60_000);
      // Switching enforcement on refuses until the 13 requests leave the window.
      const enforced = { ...c, enforceLimits: true };
      const r = await h.limiter.begin({ credential: enforced, operationType: "mutations" });
      expect(r.admitted).toBe(false);
      if (!r.admitted) expect((r.error as RateLimitExceededError).retryAfter).toBe(60);
    });
  });
}
