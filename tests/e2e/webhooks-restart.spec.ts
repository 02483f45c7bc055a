// Webhooks with a real `next start` process on Postgres: the in-process worker delivers within about
// a second, and a server killed (SIGKILL) in the middle of a delivery burst, then started again,
// delivers every event, duplicates carrying the same webhook-id.
import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { createSpecDatabase, startWebhookTestServer, type NextServer, type SpecDatabase } from "./next-server";

const adminUrl = process.env.TEST_DATABASE_URL;
const port = Number(process.env.E2E_PORT ?? 3100) + 1;
const base = `http://127.0.0.1:${port}`;
const KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const MONTHLY = "5c400000-0000-4000-8000-000300000001";
let database: SpecDatabase | undefined;
let dbUrl = "";
let server: NextServer | undefined;
let receiver: Receiver;

const start = () => startWebhookTestServer({ port, databaseUrl: dbUrl, apiKey: KEY });

const kill = (next: NextServer | undefined) => next?.stop("SIGKILL");

async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/admin/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": KEY },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

test.describe("webhooks from a real server process", () => {
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the killed and restarted server share a Postgres database");
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async () => {
    // The server migrates it on start (NODE_ENV test).
    database = await createSpecDatabase({ adminUrl: adminUrl!, prefix: "sh_e2e_wh", migrate: false });
    dbUrl = database.url;
    receiver = await startReceiver();
  });

  test.afterAll(async () => {
    await kill(server);
    await receiver?.close();
    await database?.drop();
  });

  test("delivered within about a second; a SIGKILL mid-burst loses nothing after a restart", async () => {
    test.setTimeout(240_000);
    server = await start();
    const created = await gql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { errors secret endpoint { id } } }`,
      { input: { url: receiver.url, events: ["subscription.created"] } },
    );
    expect(created.data.createWebhookEndpoint.errors).toEqual([]);
    receiver.secrets.push(created.data.createWebhookEndpoint.secret);

    const subscribe = async (i: number) => {
      const r = await gql(`mutation($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id } } }`, {
        input: { email: `wh-e2e-${i}-${new URL(dbUrl).pathname.slice(1)}@example.com`, name: "Webhook E2E", planId: MONTHLY },
      });
      expect(r.data.createSubscription.errors).toEqual([]);
      return r.data.createSubscription.subscription.id as string;
    };

    // Receiver up: the worker in the server process delivers within about a second.
    const first = await subscribe(0);
    const sentAt = Date.now();
    await expect.poll(() => receiver.received.length, { timeout: 5_000, intervals: [25] }).toBe(1);
    expect(Date.now() - sentAt).toBeLessThan(2_000);
    expect(receiver.received[0]!.payload.data.id).toBe(first);

    // A burst against a slow receiver; the server is killed while deliveries are in flight.
    receiver.reply = () => ({ status: 204, delayMs: 400 });
    const ids = [first];
    for (let i = 1; i <= 20; i++) ids.push(await subscribe(i));
    await expect.poll(() => receiver.received.length, { timeout: 30_000, intervals: [20] }).toBeGreaterThanOrEqual(4);
    await kill(server);
    const beforeRestart = new Set(receiver.received.map((r) => r.payload.data.id));
    expect(beforeRestart.size).toBeLessThan(ids.length);

    // Restarted: the dead process's leases (60 s) pass, then every event arrives.
    receiver.reply = () => ({ status: 204 });
    server = await start();
    await expect
      .poll(() => new Set(receiver.received.map((r) => r.payload.data.id)).size, { timeout: 150_000, intervals: [500] })
      .toBe(ids.length);
    expect([...new Set(receiver.received.map((r) => r.payload.data.id))].sort()).toEqual([...ids].sort());
    for (const r of receiver.received) expect(r.verifiedWith).toBe(0);
    const byId = new Map<string, string>();
    for (const r of receiver.received) {
      const seen = byId.get(r.payload.data.id);
      if (seen) expect(r.id).toBe(seen); // a duplicate carries the same webhook-id
      byId.set(r.payload.data.id, r.id);
    }
  });
});
