// Idempotency inside the limits with the limiter on Redis (issue 11): twenty concurrent requests
// with one Idempotency-Key through /admin/graphql, with an open and with a full mutation window.
// (The window cannot be moved forward here: Redis keeps its own time.)
import { afterAll, describe, expect, it } from "vitest";
import { adminAppForSuite, freshEmail, gql } from "../integration/admin-api/helpers";
import { expectAllRefusedUnclaimed, expectOneExecution, fillMutationWindow, restoreLimits, sendConcurrently, applyLimits } from "../integration/admin-api/keyed-concurrency";
import { redisUrl } from "./redis-test-env";

const app = adminAppForSuite();
const SETTINGS = ["RATE_LIMIT_STORE", "REDIS_URL", "RATE_LIMIT_MUTATIONS", "RATE_LIMIT_STORE_TIMEOUT_MS"];
afterAll(() => restoreLimits(SETTINGS));

/**
 * The limiter on Redis, connected and its scripts loaded before the test counts on it (on a busy
 * machine a first call can pass the store timeout, and the limiter then falls back to per-instance
 * counting for 5 s, which is not what these tests are about).
 */
async function onRedis(mutations: number) {
  await applyLimits({ RATE_LIMIT_STORE: "redis", REDIS_URL: redisUrl(), RATE_LIMIT_MUTATIONS: String(mutations), RATE_LIMIT_STORE_TIMEOUT_MS: "500" });
  expect((await gql(app, "{ __typename }")).status).toBe(200);
}

describe("concurrent requests with one Idempotency-Key, limiter on Redis", () => {
  it("with an open window: exactly one execution, never a 500", async () => {
    await onRedis(200);
    const { email, responses } = await sendConcurrently(app, "redis-open");
    await expectOneExecution(email, responses);
  });

  it("with a full window: all refused before any key is claimed", async () => {
    await onRedis(5);
    await fillMutationWindow(app, 5);
    const email = freshEmail("redis-full");
    const { responses } = await sendConcurrently(app, "redis-full", email);
    await expectAllRefusedUnclaimed("redis-full", email, responses);
  });
});
