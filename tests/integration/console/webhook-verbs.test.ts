// The webhook verbs the staff console adds to the Admin API's (lib/webhooks/): a test event sent to
// one endpoint, the delivery log with each attempt's status, duration and response excerpt, replay
// of one event to one endpoint, and disabling.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { ENDPOINT_NOT_FOUND } from "@/lib/webhooks/endpoint-input";
import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";
import { presentDelivery } from "@/lib/webhooks/presenter";
import { redeliverWebhookEvent } from "@/lib/webhooks/redeliver-event";
import { ENDPOINT_DISABLED, PING_EVENT_TYPE, sendTestWebhookEvent } from "@/lib/webhooks/send-test-event";
import { updateWebhookEndpoint } from "@/lib/webhooks/update-endpoint";
import { startReceiver, type Receiver } from "../../helpers/webhook-receiver";
import { DEMO_IDS, TEST_NOW, adminAppForSuite, gql } from "../admin-api/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = adminAppForSuite();
const school = DEMO_IDS.school;
const now = () => TEST_NOW;
let receiver: Receiver;
let endpointId: string;

beforeAll(() => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = "1";
  resetEnvCache();
});
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS;
  resetEnvCache();
  await receiver?.close();
});
beforeEach(async () => {
  setNow(TEST_NOW);
  await db().webhookEndpoint.deleteMany({});
  await receiver?.close();
  receiver = await startReceiver();
  const made = await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: school, input: { url: receiver.url, events: ["subscription.created"] }, now: now() });
  endpointId = made.record!.endpoint.id;
  receiver.secrets.push(made.record!.secret);
});

describe("sendTestWebhookEvent", () => {
  it("delivers a signed webhook.ping to this endpoint only, whatever its event filter", async () => {
    const other = await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: school, input: { url: `${receiver.url}/other`, events: ["*"] }, now: now() });
    const sent = await sendTestWebhookEvent({ schoolId: school, input: { endpointId }, now: now() });
    expect(sent.errors).toEqual([]);
    expect(sent.record).toMatchObject({ endpointId, status: "pending" });
    await drainWebhooks({ now, budgetMs: 10_000 });
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.verifiedWith).toBe(0);
    expect(got!.payload).toMatchObject({ type: PING_EVENT_TYPE, id: sent.record!.eventId, data: { id: endpointId, url: receiver.url, enabled: true } });
    expect(JSON.stringify(got!.payload)).not.toMatch(/whsec_|secretCiphertext/);
    expect(await db().webhookDelivery.count({ where: { endpointId: other.record!.endpoint.id } })).toBe(0);
  });

  it("logs every attempt with its status, duration and the start of the answer", async () => {
    let replies = 0;
    receiver.reply = () => (replies++ === 0 ? { status: 500, body: "database down\u001b[0m" } : { status: 200, body: '{"ok":true}' });
    const sent = await sendTestWebhookEvent({ schoolId: school, input: { endpointId }, now: now() });
    await drainWebhooks({ now, budgetMs: 10_000 });
    // The retry is due later: move the clock past it.
    const later = () => new Date(TEST_NOW.getTime() + 3_600_000);
    await drainWebhooks({ now: later, budgetMs: 10_000 });
    const [delivery] = await listWebhookDeliveries({ schoolId: school, filter: { endpointId } });
    const wire = presentDelivery(delivery!);
    expect(wire).toMatchObject({ eventId: sent.record!.eventId, eventType: PING_EVENT_TYPE, status: "succeeded", attemptCount: 2 });
    expect(wire.attempts.map((a) => [a.statusCode, a.succeeded, a.responseExcerpt])).toEqual([
      [500, false, "database down [0m"],
      [200, true, '{"ok":true}'],
    ]);
    for (const a of wire.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(0);
    // The Admin API reads the same log.
    const q = await gql(app, `{ webhookDeliveries(endpointId: "${endpointId}") { attempts { statusCode responseExcerpt } } }`);
    expect(q.body.data.webhookDeliveries[0].attempts).toEqual([
      { statusCode: 500, responseExcerpt: "database down [0m" },
      { statusCode: 200, responseExcerpt: '{"ok":true}' },
    ]);
  }, 120_000);

  it("refuses a disabled endpoint, another school's and a malformed id, writing nothing", async () => {
    const events = await db().webhookEvent.count();
    await updateWebhookEndpoint({ actor: TEST_ACTOR, schoolId: school, input: { id: endpointId, enabled: false }, now: now() });
    expect((await sendTestWebhookEvent({ schoolId: school, input: { endpointId }, now: now() })).errors).toEqual([ENDPOINT_DISABLED]);
    expect((await sendTestWebhookEvent({ schoolId: DEMO_IDS.acmeSchool, input: { endpointId }, now: now() })).errors).toEqual([ENDPOINT_NOT_FOUND]);
    expect((await sendTestWebhookEvent({ schoolId: school, input: { endpointId: "x' OR 1=1" }, now: now() })).errors).toEqual([ENDPOINT_NOT_FOUND]);
    expect(await db().webhookEvent.count()).toBe(events);
  });
});

describe("replay and disable", () => {
  it("replays one event to one endpoint with the same webhook-id and body; a disabled endpoint gets nothing until enabled", async () => {
    const sent = await sendTestWebhookEvent({ schoolId: school, input: { endpointId }, now: now() });
    await drainWebhooks({ now, budgetMs: 10_000 });
    const replay = await redeliverWebhookEvent({ actor: TEST_ACTOR, schoolId: school, input: { eventId: sent.record!.eventId, endpointId }, now: now() });
    expect(replay.errors).toEqual([]);
    await drainWebhooks({ now, budgetMs: 10_000 });
    expect(receiver.received.map((r) => r.id)).toEqual([sent.record!.eventId, sent.record!.eventId]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);

    const disabled = await updateWebhookEndpoint({ actor: TEST_ACTOR, schoolId: school, input: { id: endpointId, enabled: false }, now: now() });
    expect(disabled.record).toMatchObject({ disabledReason: "Disabled by the school" });
    await redeliverWebhookEvent({ actor: TEST_ACTOR, schoolId: school, input: { eventId: sent.record!.eventId, endpointId }, now: now() });
    await drainWebhooks({ now, budgetMs: 10_000 });
    expect(receiver.received).toHaveLength(2);
    await updateWebhookEndpoint({ actor: TEST_ACTOR, schoolId: school, input: { id: endpointId, enabled: true }, now: now() });
    await drainWebhooks({ now, budgetMs: 10_000 });
    expect(receiver.received).toHaveLength(3);
  });
});
