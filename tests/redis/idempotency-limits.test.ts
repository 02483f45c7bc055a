// Idempotency inside the limits with the limiter on Redis (issue 11): twenty concurrent requests
// with one Idempotency-Key through /admin/graphql, with an open and with a full mutation window.
//
// The limiter talks to Redis directly, without the outage fallback the app wraps it in: on a busy
// machine a call can pass the 500 ms store timeout, and per-instance counting is not what these
// tests are about (tests/integration/rate-limit/unreachable-store.test.ts covers it). Windows
// follow the service clock (callerClock) so the full window can be opened again.
import { afterAll, describe, it } from "vitest";
import { advance } from "@/lib/clock";
import { env } from "@/lib/env";
import { RateLimiter, setAdminRateLimiter } from "@/lib/rate-limit";
import { rateLimitSettings } from "@/lib/rate-limit/config";
import { RedisStore } from "@/lib/rate-limit/stores/redis";
import { adminAppForSuite, freshEmail } from "../integration/admin-api/helpers";
import { applyLimits, expectAllRefusedUnclaimed, expectOneExecution, fillMutationWindow, restoreLimits, sendConcurrently } from "../integration/admin-api/keyed-concurrency";
import { redisUrl, testPrefix } from "./redis-test-env";

const app = adminAppForSuite();
const SETTINGS = ["RATE_LIMIT_MUTATIONS"];
afterAll(() => restoreLimits(SETTINGS));

async function onRedis(mutations: number) {
  await applyLimits({ RATE_LIMIT_MUTATIONS: String(mutations) });
  const store = new RedisStore({ redis: redisUrl(), prefix: testPrefix(), timeoutMs: 10_000, callerClock: true });
  setAdminRateLimiter(new RateLimiter({ store, limits: rateLimitSettings(env()).limits }));
}

describe("concurrent requests with one Idempotency-Key, limiter on Redis", () => {
  it("with an open window: exactly one execution, never a 500", async () => {
    await onRedis(200);
    const { email, responses } = await sendConcurrently(app, "redis-open");
    await expectOneExecution(email, responses);
  });

  it("with a full window: all refused before any key is claimed; once the window opens, one execution", async () => {
    await onRedis(5);
    await fillMutationWindow(app, 5);
    const email = freshEmail("redis-full");
    const refused = await sendConcurrently(app, "redis-full", email);
    await expectAllRefusedUnclaimed("redis-full", email, refused.responses);
    advance(60_000);
    const admitted = await sendConcurrently(app, "redis-full", email);
    await expectOneExecution(email, admitted.responses);
  });
});
