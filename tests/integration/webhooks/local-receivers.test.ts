// Webhooks on a developer's own machine (issue 29, item 5): with WEBHOOKS_LOCAL_RECEIVERS on the
// embedded demo, the demo school may deliver to http://127.0.0.1:<port>; every other school, and
// every deployment, keeps the SSRF-safe https-only rule (docs/security.md).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { parseEnv, resetEnvCache } from "@/lib/env";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { startReceiver, type Receiver } from "../../helpers/webhook-receiver";
import { ACME_API_KEY, TEST_NOW, adminAppForSuite, freshEmail, gql, PLANS } from "../admin-api/helpers";

const app = adminAppForSuite();
const CREATE_ENDPOINT = `mutation C($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { errors secret endpoint { id url } } }`;
const UPDATE_ENDPOINT = `mutation U($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { errors endpoint { url } } }`;
let receiver: Receiver;

const create = async (url: string, key?: string) =>
  (await gql(app, CREATE_ENDPOINT, { input: { url, events: ["*"] } }, { key })).body.data.createWebhookEndpoint as {
    errors: string[];
    secret: string | null;
    endpoint: { id: string; url: string } | null;
  };

function setFlag(value: string | undefined) {
  if (value === undefined) delete process.env.WEBHOOKS_LOCAL_RECEIVERS;
  else process.env.WEBHOOKS_LOCAL_RECEIVERS = value;
  resetEnvCache();
}

beforeAll(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  setFlag(undefined);
  await db().webhookEndpoint.deleteMany({});
});
afterAll(() => receiver.close());

describe("local webhook receivers on the embedded demo", () => {
  it("the demo school delivers to http://127.0.0.1 with the switch on", async () => {
    setFlag("1");
    const made = await create(receiver.url);
    expect(made.errors).toEqual([]);
    expect(made.endpoint!.url).toBe(receiver.url);
    receiver.secrets.push(made.secret!);
    const sub = await gql(app, `mutation ($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors } }`, {
      input: { email: freshEmail("local"), name: "Local Hook", planId: PLANS.monthly },
    });
    expect(sub.body.data.createSubscription.errors).toEqual([]);
    await drainWebhooks({ now: () => TEST_NOW, budgetMs: 20_000 });
    expect(receiver.received.map((r) => r.payload.type)).toContain("subscription.created");
    expect(receiver.received.every((r) => r.verifiedWith === 0)).toBe(true);
    // [::1] too; a name (localhost) must still be https: only IP literals are unambiguous.
    expect((await create("http://[::1]:9/hook")).errors).toEqual([]);
    expect((await create("http://localhost:9/hook")).errors).toEqual(["url: URL must use https"]);
  });

  it("another school, private networks and the switch off keep the https-only rule", async () => {
    setFlag("1");
    expect((await create("http://127.0.0.1:9/hook", ACME_API_KEY)).errors).toEqual(["url: URL must use https"]);
    expect((await create("http://10.0.0.1:9/hook")).errors).toEqual(["url: URL must use https"]);
    expect((await create("https://10.0.0.1/hook")).errors).toEqual(["url: URL host is a private or special-use address"]);
    setFlag(undefined);
    expect((await create("http://127.0.0.1:9/hook")).errors).toEqual(["url: URL must use https"]);
    const made = await create("https://hooks.example/ok");
    expect(made.errors).toEqual([]);
    setFlag("1");
    expect((await gql(app, UPDATE_ENDPOINT, { input: { id: made.endpoint!.id, url: "http://127.0.0.1:9/x" } }, { key: ACME_API_KEY })).body.data.updateWebhookEndpoint.errors).toEqual([
      "url: URL must use https",
    ]);
    expect((await gql(app, UPDATE_ENDPOINT, { input: { id: made.endpoint!.id, url: "http://127.0.0.1:9/x" } })).body.data.updateWebhookEndpoint.errors).toEqual([]);
  });

  it("is refused with a database server or on Vercel: never in a deployment", () => {
    expect(parseEnv({ WEBHOOKS_LOCAL_RECEIVERS: "1", NODE_ENV: "production" }).WEBHOOKS_LOCAL_RECEIVERS).toBe(true);
    expect(() => parseEnv({ WEBHOOKS_LOCAL_RECEIVERS: "1", DATABASE_URL: "postgresql://u@db.example:5432/s" })).toThrow(
      /^WEBHOOKS_LOCAL_RECEIVERS: is only allowed on the embedded demo database/,
    );
    expect(() => parseEnv({ WEBHOOKS_LOCAL_RECEIVERS: "1", VERCEL: "1", DATABASE_URL: "postgresql://u@db.example:5432/s", AUTH_SECRET: "x".repeat(32) })).toThrow(/WEBHOOKS_LOCAL_RECEIVERS/);
  });
});
