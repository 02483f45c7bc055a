// Webhooks end to end: endpoints managed through the Admin API, every event type delivered to a
// receiver that verifies each request with the standardwebhooks library, retries on a controlled
// clock, 410 and long failure disabling, secret rotation, redelivery, and a worker killed mid-burst.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { resetEnvCache } from "@/lib/env";
import { drainWebhooks } from "@/lib/webhooks/deliver";
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "@/lib/webhooks/schedule";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { startReceiver, type Receiver } from "../../helpers/webhook-receiver";
import { CANCEL, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, adminAppForSuite, freshEmail, gql, subscribe } from "../admin-api/helpers";

const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const CRON_SECRET = "cron-secret-for-webhook-tests-0123";
const app = adminAppForSuite();
let clock = TEST_NOW.getTime();
const at = (ms: number) => {
  clock = ms;
  setNow(new Date(ms));
};
const now = () => new Date(clock);
const drain = () => drainWebhooks({ now, budgetMs: 20_000 });

const ENDPOINT_FIELDS = "id url description events enabled disabledAt disabledReason failingSince previousSecretExpiresAt createdAt updatedAt";
const CREATE_ENDPOINT = `mutation C($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { errors secret endpoint { ${ENDPOINT_FIELDS} } } }`;
const UPDATE_ENDPOINT = `mutation U($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { errors endpoint { ${ENDPOINT_FIELDS} } } }`;
const DELETE_ENDPOINT = `mutation D($input: WebhookEndpointIdInput!) { deleteWebhookEndpoint(input: $input) { errors deletedId } }`;
const ROTATE = `mutation R($input: WebhookEndpointIdInput!) { rotateWebhookSecret(input: $input) { errors secret endpoint { ${ENDPOINT_FIELDS} } } }`;
const ENDPOINTS = `{ webhookEndpoints { ${ENDPOINT_FIELDS} } }`;
const DELIVERY_FIELDS = "id endpointId eventId eventType payload status attemptCount nextAttemptAt lastStatusCode lastError createdAt attempts { attemptedAt durationMs statusCode error succeeded }";
const DELIVERIES = `query Q($endpointId: String, $eventId: String, $status: String, $first: Int) { webhookDeliveries(endpointId: $endpointId, eventId: $eventId, status: $status, first: $first) { ${DELIVERY_FIELDS} } }`;
const REDELIVER = `mutation R($input: RedeliverWebhookEventInput!) { redeliverWebhookEvent(input: $input) { errors deliveries { ${DELIVERY_FIELDS} } } }`;
const UPDATE = `mutation U($input: AdminUpdateSubscriptionInput!) { updateSubscription(input: $input) { errors } }`;
const ENROLL = `mutation E($input: EnrollStudentToCourseInput!) { enrollStudentToCourse(input: $input) { errors enrollment { id } } }`;

let receiver: Receiver;
let endpointId: string;

async function createEndpoint(url: string, events: string[] = ["*"], key?: string) {
  const r = await gql(app, CREATE_ENDPOINT, { input: { url, events, description: "CRM sync" } }, { key });
  return r.body.data.createWebhookEndpoint as { errors: string[]; secret: string | null; endpoint: Record<string, unknown> | null };
}

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS = "1";
  process.env.CRON_SECRET = CRON_SECRET;
  resetEnvCache();
});
afterAll(() => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS;
  delete process.env.CRON_SECRET;
  resetEnvCache();
});
beforeEach(async () => {
  at(TEST_NOW.getTime());
  // Each test gets its own receiver and endpoint; earlier endpoints are gone with their deliveries.
  await db().webhookEndpoint.deleteMany({});
  receiver = await startReceiver();
  const created = await createEndpoint(receiver.url);
  expect(created.errors).toEqual([]);
  receiver.secrets.push(created.secret!);
  endpointId = created.endpoint!.id as string;
});
afterEach(async () => {
  await receiver.close();
});

describe("managing endpoints (Admin API)", () => {
  it("createWebhookEndpoint returns a whsec_ secret once; it is stored encrypted and never listed", async () => {
    const secret = receiver.secrets[0]!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await gql(app, ENDPOINTS);
    expect(list.body.data.webhookEndpoints).toEqual([
      expect.objectContaining({ id: endpointId, url: receiver.url, events: ["*"], description: "CRM sync", enabled: true, disabledReason: null, createdAt: T }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(row.secretCiphertext).not.toContain(secret.slice(6));
    expect(row.secretCiphertext).toMatch(/^v1\./);
  });

  it("with an Idempotency-Key, the secret is shown once: the stored replay copy and the replay hold null in its place", async () => {
    const headers = { "idempotency-key": "create-endpoint-once" };
    const input = { url: "https://hooks.example.com/once", events: ["*"], description: "once" };
    const first = await gql(app, CREATE_ENDPOINT, { input }, { headers });
    const created = first.body.data.createWebhookEndpoint as { secret: string; endpoint: { id: string } };
    expect(created.secret).toMatch(/^whsec_/);
    const replay = await gql(app, CREATE_ENDPOINT, { input }, { headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data.createWebhookEndpoint).toMatchObject({ secret: null, endpoint: { id: created.endpoint.id } });

    const rotateHeaders = { "idempotency-key": "rotate-once" };
    const rotated = await gql(app, ROTATE, { input: { id: created.endpoint.id } }, { headers: rotateHeaders });
    const newSecret = rotated.body.data.rotateWebhookSecret.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect((await gql(app, ROTATE, { input: { id: created.endpoint.id } }, { headers: rotateHeaders })).body.data.rotateWebhookSecret.secret).toBeNull();

    const stored = await db().idempotencyKey.findMany({ where: { key: { in: ["create-endpoint-once", "rotate-once"] } } });
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      expect(row.responseBody).not.toContain(created.secret.slice(6));
      expect(row.responseBody).not.toContain(newSecret.slice(6));
    }
  });

  it("refuses bad URLs (SSRF: private and special-use addresses, plain http), unknown event types, in the errors array", async () => {
    for (const [url, message] of [
      ["http://hooks.example.com/in", /https/],
      ["https://10.0.0.7/in", /private or special-use/],
      ["https://169.254.169.254/latest/meta-data", /private or special-use/],
      ["https://[fd00::1]/in", /private or special-use/],
      ["https://192.168.1.20/in", /private or special-use/],
      ["https://user:pw@hooks.example.com/in", /credentials/],
      ["not a url", /not valid/],
    ] as const) {
      const r = await createEndpoint(url);
      expect(r.endpoint).toBeNull();
      expect(r.secret).toBeNull();
      expect(r.errors[0]).toMatch(message);
    }
    const r = await createEndpoint("https://hooks.example.com/in", ["subscription.created", "order.paid"]);
    expect(r.errors[0]).toMatch(/Unknown event type order\.paid/);
    expect((await createEndpoint("https://hooks.example.com/in", [])).errors[0]).toMatch(/at least one event type/);
  });

  it("update, disable/enable, delete; unknown ids and other schools' endpoints are 'Webhook endpoint not found'", async () => {
    const u = await gql(app, UPDATE_ENDPOINT, { input: { id: endpointId, events: ["member.created", "member.created"], description: "Mailing list" } });
    expect(u.body.data.updateWebhookEndpoint).toMatchObject({ errors: [], endpoint: { events: ["member.created"], description: "Mailing list", url: receiver.url } });
    const off = await gql(app, UPDATE_ENDPOINT, { input: { id: endpointId, enabled: false } });
    expect(off.body.data.updateWebhookEndpoint.endpoint).toMatchObject({ enabled: false, disabledReason: "Disabled by the school", disabledAt: T });
    const on = await gql(app, UPDATE_ENDPOINT, { input: { id: endpointId, enabled: true } });
    expect(on.body.data.updateWebhookEndpoint.endpoint).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    for (const id of ["nope", "00000000-0000-4000-8000-000000000000"]) {
      expect((await gql(app, UPDATE_ENDPOINT, { input: { id, description: "x" } })).body.data.updateWebhookEndpoint).toEqual({ errors: ["Webhook endpoint not found"], endpoint: null });
    }
    // The Acme school's key cannot see or change the demo school's endpoint.
    const { ACME_API_KEY } = await import("../admin-api/helpers");
    expect((await gql(app, DELETE_ENDPOINT, { input: { id: endpointId } }, { key: ACME_API_KEY })).body.data.deleteWebhookEndpoint).toEqual({ errors: ["Webhook endpoint not found"], deletedId: null });
    expect((await gql(app, ENDPOINTS, {}, { key: ACME_API_KEY })).body.data.webhookEndpoints).toEqual([]);
    expect((await gql(app, DELETE_ENDPOINT, { input: { id: endpointId } })).body.data.deleteWebhookEndpoint).toEqual({ errors: [], deletedId: endpointId });
    expect((await gql(app, ENDPOINTS)).body.data.webhookEndpoints).toEqual([]);
  });

  it("every webhook operation needs its own permission", async () => {
    const r = await createEndpoint(receiver.url, ["*"], NO_PERMISSIONS_KEY);
    expect(r).toEqual({ errors: ["Unauthorized"], secret: null, endpoint: null });
    for (const [query, input] of [
      [UPDATE_ENDPOINT, { id: endpointId, description: "x" }],
      [DELETE_ENDPOINT, { id: endpointId }],
      [ROTATE, { id: endpointId }],
      [REDELIVER, { eventId: endpointId }],
    ] as const) {
      const res = await gql(app, query, { input }, { key: NO_PERMISSIONS_KEY });
      expect((Object.values(res.body.data)[0] as { errors: string[] }).errors).toEqual(["Unauthorized"]);
    }
    for (const q of [ENDPOINTS, DELIVERIES]) {
      const res = await gql(app, q, {}, { key: NO_PERMISSIONS_KEY });
      expect(res.body.errors[0].extensions.code).toBe("FORBIDDEN");
    }
  });
});

describe("delivery", () => {
  it("every event type from the Admin API and from time passing (cron) reaches the receiver, signed (standardwebhooks verifies each)", async () => {
    const course = await db().course.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school } });
    const sub = await subscribe(app, PLANS.monthly); // member.created + subscription.created
    await gql(app, UPDATE, { input: { id: sub.id, currentPeriodEnd: T + 40 * DAY } }); // subscription.updated
    await gql(app, CANCEL, { input: { id: sub.id } }); // subscription.canceling
    const now2 = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: now2.id, cancelAtPeriodEnd: false } }); // subscription.canceled
    await gql(app, ENROLL, { input: { courseId: course.id, email: freshEmail("wh"), name: "Enrolled" } }); // enrollment.created
    const fixed = await subscribe(app, PLANS.summerCohort, { expireAt: T + 3 * DAY });
    await drain();

    // Time passes: the cron route settles (subscription.canceled from the schedule, subscription.expired).
    at((T + 41 * DAY) * 1000);
    const cron = await app.fetch("/api/cron/subscriptions", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    const settled = await cron.json();
    expect(settled.canceledIds).toContain(sub.id);
    expect(settled.expiredIds).toContain(fixed.id);
    const drained = await app.fetch("/api/cron/webhooks", { headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(await drained.json()).toMatchObject({ ok: true, attempted: expect.any(Number) });

    const types = new Set(receiver.received.map((r) => r.payload.type));
    expect([...types].sort()).toEqual(
      ["enrollment.created", "member.created", "subscription.canceled", "subscription.canceling", "subscription.created", "subscription.expired", "subscription.updated"].sort(),
    );
    for (const r of receiver.received) {
      expect(r.verifiedWith).toBe(0);
      expect(r.id).toBe(r.payload.id);
      expect(Object.keys(r.payload)).toEqual(["type", "id", "timestamp", "data"]);
    }
    const expired = receiver.received.find((r) => r.payload.type === "subscription.expired")!;
    expect(expired.payload.data).toMatchObject({ id: fixed.id, state: "expired", endAt: T + 3 * DAY });
    expect(expired.payload.timestamp).toBe(T + 41 * DAY);
    // Every delivery succeeded once; nothing left pending.
    expect(await db().webhookDelivery.count({ where: { endpointId, status: { not: "succeeded" } } })).toBe(0);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
    // The cron route is protected like the subscriptions one.
    expect((await app.fetch("/api/cron/webhooks")).status).toBe(401);
  });

  it("retries with exponential backoff and jitter on the schedule, then gives up; webhookDeliveries shows every attempt", async () => {
    receiver.reply = () => ({ status: 500 });
    await gql(app, UPDATE_ENDPOINT, { input: { id: endpointId, events: ["subscription.created"] } });
    const sub = await subscribe(app, PLANS.monthly);
    await drain();
    expect(receiver.received).toHaveLength(1);
    let expectedAttempts = 1;
    for (const delay of RETRY_DELAYS_MS) {
      const row = await db().webhookDelivery.findFirstOrThrow({ where: { endpointId } });
      expect(row).toMatchObject({ status: "pending", attemptCount: expectedAttempts, lastStatusCode: 500 });
      const wait = row.nextAttemptAt!.getTime() - clock;
      expect(wait).toBeGreaterThanOrEqual(delay * 0.8);
      expect(wait).toBeLessThanOrEqual(delay * 1.2);
      // Not before it is due.
      at(row.nextAttemptAt!.getTime() - 1);
      await drain();
      expect(receiver.received).toHaveLength(expectedAttempts);
      at(row.nextAttemptAt!.getTime());
      await drain();
      expectedAttempts++;
      expect(receiver.received).toHaveLength(expectedAttempts);
    }
    expect(expectedAttempts).toBe(MAX_ATTEMPTS);
    const total = clock - TEST_NOW.getTime();
    expect(total).toBeGreaterThan(2.3 * DAY * 1000);
    expect(total).toBeLessThan(3.7 * DAY * 1000);
    // All attempts carry the same webhook-id: the receiver can deduplicate.
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    const list = await gql(app, DELIVERIES, { endpointId });
    const [d] = list.body.data.webhookDeliveries;
    expect(d).toMatchObject({ status: "failed", attemptCount: MAX_ATTEMPTS, nextAttemptAt: null, lastStatusCode: 500, lastError: "HTTP 500", eventType: "subscription.created" });
    expect(d.attempts).toHaveLength(MAX_ATTEMPTS);
    expect(d.attempts[0]).toMatchObject({ statusCode: 500, succeeded: false, attemptedAt: T, durationMs: expect.any(Number) });
    expect(JSON.parse(d.payload).data.id).toBe(sub.id);

    // Redelivery once the receiver is fixed: same webhook-id, succeeds.
    receiver.reply = () => ({ status: 200 });
    const redo = await gql(app, REDELIVER, { input: { eventId: d.eventId } });
    expect(redo.body.data.redeliverWebhookEvent.errors).toEqual([]);
    expect(redo.body.data.redeliverWebhookEvent.deliveries[0]).toMatchObject({ status: "pending", attemptCount: 0 });
    await drain();
    expect(receiver.received.at(-1)!.id).toBe(d.eventId);
    expect((await gql(app, DELIVERIES, { eventId: d.eventId })).body.data.webhookDeliveries[0]).toMatchObject({ status: "succeeded", lastStatusCode: 200 });
    expect((await gql(app, REDELIVER, { input: { eventId: "00000000-0000-4000-8000-000000000000" } })).body.data.redeliverWebhookEvent.errors).toEqual(["Webhook event not found"]);
    expect((await gql(app, DELIVERIES, { status: "lost" })).body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
  });

  it("honours Retry-After on 429 and 503", async () => {
    receiver.reply = () => ({ status: 429, headers: { "retry-after": "120" } });
    await subscribe(app, PLANS.monthly);
    await drain();
    for (const d of await db().webhookDelivery.findMany({ where: { endpointId } })) {
      expect(d.nextAttemptAt!.getTime() - clock).toBe(120_000);
    }
    receiver.reply = () => ({ status: 503, headers: { "retry-after": new Date(clock + 3_600_000).toUTCString() } });
    at(clock + 120_000);
    await drain();
    for (const d of await db().webhookDelivery.findMany({ where: { endpointId } })) {
      expect(d).toMatchObject({ attemptCount: 2, lastStatusCode: 503 });
      expect(Math.abs(d.nextAttemptAt!.getTime() - clock - 3_600_000)).toBeLessThan(1000);
    }
  });

  it("410 Gone disables the endpoint with a visible reason; its deliveries wait and resume when re-enabled", async () => {
    receiver.reply = () => ({ status: 410 });
    await subscribe(app, PLANS.monthly);
    await drain();
    const [ep] = (await gql(app, ENDPOINTS)).body.data.webhookEndpoints;
    expect(ep).toMatchObject({ enabled: false, disabledAt: T });
    expect(ep.disabledReason).toMatch(/410 Gone/);
    const count = receiver.received.length;
    await subscribe(app, PLANS.monthly); // no delivery for a disabled endpoint
    at(clock + DAY * 1000);
    await drain();
    expect(receiver.received).toHaveLength(count);
    expect(await db().webhookDelivery.count({ where: { endpointId, status: "pending" } })).toBe(0);
  });

  it("an endpoint failing for days is disabled, with the reason", async () => {
    receiver.reply = () => ({ status: 500 });
    await subscribe(app, PLANS.monthly);
    await drain();
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).failingSince).toEqual(TEST_NOW);
    // Days later, new events still fail: past DISABLE_AFTER_FAILING_MS without a success the endpoint is disabled.
    at(TEST_NOW.getTime() + DISABLE_AFTER_FAILING_MS + 1000);
    await subscribe(app, PLANS.monthly);
    await drain();
    const [ep] = (await gql(app, ENDPOINTS)).body.data.webhookEndpoints;
    expect(ep.enabled).toBe(false);
    expect(ep.disabledReason).toMatch(/No successful delivery since 2026-11-21T12:00:00.000Z \(last error: HTTP 500\)/);
    expect(ep.failingSince).toBe(T);
    // A success clears the failure record (after re-enabling).
    receiver.reply = () => ({ status: 204 });
    await gql(app, UPDATE_ENDPOINT, { input: { id: endpointId, enabled: true } });
    await subscribe(app, PLANS.monthly);
    await drain();
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).failingSince).toBeNull();
  });

  it("rotateWebhookSecret: both secrets sign during the 24 h overlap, then only the new one", async () => {
    const old = receiver.secrets[0]!;
    const r = await gql(app, ROTATE, { input: { id: endpointId } });
    const { secret, endpoint } = r.body.data.rotateWebhookSecret;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    expect(endpoint.previousSecretExpiresAt).toBe(T + DAY);
    await subscribe(app, PLANS.monthly);
    await drain();
    const during = receiver.received.at(-1)!;
    expect(during.signature.split(" ")).toHaveLength(2);
    expect(during.verifiedWith).toBe(0); // a receiver still holding the old secret verifies
    receiver.secrets.splice(0, 1, secret); // a receiver that switched verifies too
    at(clock + DAY * 1000 + 1000);
    await subscribe(app, PLANS.monthly);
    await drain();
    const after = receiver.received.at(-1)!;
    expect(after.signature.split(" ")).toHaveLength(1);
    expect(after.verifiedWith).toBe(0);
    receiver.secrets.splice(0, 1, old);
    receiver.received.length = 0;
    await subscribe(app, PLANS.monthly);
    await drain();
    expect(receiver.received.every((x) => x.verifiedWith === -1)).toBe(true);
  });

  it("a secret encrypted under another AUTH_SECRET is a visible failed attempt, not a crashed worker", async () => {
    await db().webhookEndpoint.update({ where: { id: endpointId }, data: { secretCiphertext: "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    await subscribe(app, PLANS.monthly);
    await drain();
    expect(receiver.received).toHaveLength(0);
    const [d] = (await gql(app, DELIVERIES, { endpointId })).body.data.webhookDeliveries;
    expect(d).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: null });
    expect(d.lastError).toMatch(/signing secret cannot be read/);
  });

  it("the in-process worker delivers within a second", async () => {
    const worker = startWebhookWorker({ intervalMs: 200 });
    try {
      const started = Date.now();
      await subscribe(app, PLANS.monthly);
      while (receiver.received.length < 2 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 25));
      expect(receiver.received.map((r) => r.payload.type).sort()).toEqual(["member.created", "subscription.created"]);
      expect(Date.now() - started).toBeLessThan(1000 + 1500); // within a second of the commit (plus the mutation itself on a busy machine)
    } finally {
      await worker.stop();
    }
  });

  it("a worker killed in the middle of a burst: after a restart every event arrives, duplicates carry the same webhook-id", async () => {
    receiver.reply = () => ({ status: 204, delayMs: 150 });
    for (let i = 0; i < 12; i++) await subscribe(app, PLANS.monthly);
    const expected = await db().webhookDelivery.findMany({ where: { endpointId }, include: { event: true } });
    expect(expected).toHaveLength(24);
    const first = startWebhookWorker({ intervalMs: 50 });
    while (receiver.received.length < 8) await new Promise((r) => setTimeout(r, 10));
    // Killed: requests in flight are answered, but the worker never records them (as a dead process).
    await first.stop({ abandon: true });
    const beforeRestart = receiver.received.length;
    expect(beforeRestart).toBeLessThan(24);
    // The restarted worker takes over once the dead worker's leases pass.
    at(clock + 61_000);
    const second = startWebhookWorker({ intervalMs: 50 });
    const started = Date.now();
    while ((await db().webhookDelivery.count({ where: { endpointId, status: "succeeded" } })) < 24 && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await second.stop();
    const ids = new Set(receiver.received.map((r) => r.id));
    expect([...ids].sort()).toEqual(expected.map((d) => d.eventId).sort());
    expect(receiver.received.length).toBeGreaterThan(24); // the killed worker's in-flight ones came twice
    for (const r of receiver.received) expect(r.verifiedWith).toBe(0);
    const bodies = new Map<string, string>();
    for (const r of receiver.received) {
      if (bodies.has(r.id)) expect(r.body).toBe(bodies.get(r.id));
      bodies.set(r.id, r.body);
    }
  });
});
