// Several instances delivering from one Postgres database: claims use FOR UPDATE SKIP LOCKED and a
// lease, so in normal operation each event reaches the receiver exactly once, whichever worker sends it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { DEMO_IDS, PLANS, TEST_NOW, subscribe } from "../integration/admin-api/helpers";
import { TEST_ACTOR } from "../helpers/audit-actor";

let app: AppServer;
let receiver: Receiver;
beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = "1";
  resetEnvCache();
  await seedDemo({ prisma: db() });
  await db().apiKey.update({ where: { id: DEMO_IDS.apiKeys.full }, data: { enforceLimits: false } });
  setNow(TEST_NOW);
  app = await startAppServer();
  receiver = await startReceiver();
  const created = await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { url: receiver.url, events: ["subscription.created"] }, now: TEST_NOW });
  receiver.secrets.push(created.record!.secret);
});
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS;
  resetEnvCache();
  setNow(null);
  await receiver.close();
  await app.close();
});

describe("two workers on Postgres", () => {
  it("deliver each of 40 events once, sharing the work", async () => {
    await Promise.all(Array.from({ length: 40 }, () => subscribe(app, PLANS.monthly)));
    receiver.reply = () => ({ status: 204, delayMs: 20 });
    const now = () => TEST_NOW;
    const [a, b] = await Promise.all([drainWebhooks({ now, batchSize: 4 }), drainWebhooks({ now, batchSize: 4 })]);
    expect(a.attempted + b.attempted).toBe(40);
    expect(a.attempted).toBeGreaterThan(0);
    expect(b.attempted).toBeGreaterThan(0);
    const ids = receiver.received.map((r) => r.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(receiver.received.every((r) => r.verifiedWith === 0)).toBe(true);
    expect(await db().webhookDelivery.count({ where: { status: "succeeded", attemptCount: 1 } })).toBe(40);
  });
});
