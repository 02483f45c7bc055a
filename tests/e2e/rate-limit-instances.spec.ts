// Two `next start` processes sharing one Redis admit, together, exactly the limit.
import net from "node:net";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startNextServer, type NextServer } from "./next-server";

const redisUrl = process.env.REDIS_URL || process.env.TEST_REDIS_URL;
const basePort = Number(process.env.E2E_PORT ?? 3100);
const ports = [basePort + 1, basePort + 2];
const DEMO_KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const LIMIT = 40;

let servers: NextServer[] = [];

/** Fails fast when something already listens on the port: its answers would not be ours. */
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", () => reject(new Error(`port ${port} is already in use; stop what listens there`)));
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

test.describe("rate limits across instances", () => {
  test.skip(!redisUrl, "needs REDIS_URL: a Redis both instances share");
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const prefix = `e2e:rl:${randomUUID().slice(0, 8)}`;
    for (const port of ports) await assertPortFree(port);
    servers = ports.map((port) =>
      startNextServer(port, {
        NODE_ENV: "production",
        PGLITE_DATA_DIR: "memory://",
        DATABASE_URL: "",
        PLATFORM_DOMAIN: "localhost",
        DEFAULT_SCHOOL: "demo",
        REDIS_URL: redisUrl!,
        KV_REST_API_URL: "",
        KV_REST_API_TOKEN: "",
        RATE_LIMIT_KEY_PREFIX: prefix,
        RATE_LIMIT_QUERIES: String(LIMIT),
        // Only the per-minute counter may refuse in this test.
        RATE_LIMIT_MAX_IN_FLIGHT: "1000",
        // The longest store deadline allowed: on a loaded machine a slow Redis reply would
        // otherwise trigger the (separately tested) fail-open to per-instance limits.
        RATE_LIMIT_STORE_TIMEOUT_MS: "500",
      }),
    );
    await Promise.all(servers.map((s) => s.healthy()));
  });

  test.afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  test("admit exactly the limit together, with no overshoot", async () => {
    const send = (port: number) =>
      fetch(`http://127.0.0.1:${port}/admin/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-api-key": DEMO_KEY },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
    // Half the budget, alternating between the instances, so both have their Redis connection
    // and scripts loaded before the burst (a cold first call can outlast the store deadline)…
    for (let i = 0; i < LIMIT / 2; i++) expect((await send(ports[i % 2]!)).status).toBe(200);
    // …then a concurrent burst on both: exactly the other half is admitted.
    const responses = await Promise.all(Array.from({ length: 3 * LIMIT }, (_, i) => send(ports[i % 2]!)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT / 2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3 * LIMIT - LIMIT / 2);
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers.get("x-ratelimit-limit")).toBe(String(LIMIT));
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await refused.json();
    expect(body.errors[0].extensions).toMatchObject({ code: "RATE_LIMIT_EXCEEDED", operation_type: "queries", limit: LIMIT });
    // And the other instance refuses too, from the same window.
    const more = await Promise.all(ports.map(send));
    expect(more.map((r) => r.status)).toEqual([429, 429]);
  });
});
