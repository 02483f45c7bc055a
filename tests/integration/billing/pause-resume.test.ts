// pauseSubscription / resumeSubscription (docs/decisions.md, "Billing", "Pause") through the Admin
// API over HTTP and the MCP staff tools, on a driven clock: no charge and no expiry while paused,
// the period moved by the time paused on resume, events written, refused input writes nothing.
// PGlite, and Postgres with TEST_DATABASE_URL.
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { memberSubscriptions } from "@/lib/account/queries";
import { DEFAULT_DEMO_API_KEY } from "@/lib/demo-secrets";
import { ALREADY_PAUSED, CANCELING_NOT_PAUSABLE, LIFETIME_NOT_PAUSABLE, NOT_PAUSABLE } from "@/lib/membership/pause-subscription";
import { NOT_PAUSED } from "@/lib/membership/resume-subscription";
import { CANCEL, DEMO_IDS, NO_PERMISSIONS_KEY, PLANS, TEST_NOW, adminAppForSuite, gql, subscribe } from "../admin-api/helpers";
import { call, mcpClient, text } from "../mcp/helpers";
import { CARDS, billingEventsOf, providerChargesOf, readBilled, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const at = (unix: number) => new Date(unix * 1000);
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;

const FIELDS = `errors subscription { id state isPaused pausedAt currentPeriodStart currentPeriodEnd endAt nextChargeDate updatedAt }`;
const PAUSE = `mutation P($input: AdminPauseSubscriptionInput!) { pauseSubscription(input: $input) { ${FIELDS} } }`;
const RESUME = `mutation R($input: AdminResumeSubscriptionInput!) { resumeSubscription(input: $input) { ${FIELDS} } }`;

const pause = async (id: string, options: Parameters<typeof gql>[3] = {}) => (await gql(app, PAUSE, { input: { id } }, options)).body.data.pauseSubscription;
const resume = async (id: string, options: Parameters<typeof gql>[3] = {}) => (await gql(app, RESUME, { input: { id } }, options)).body.data.resumeSubscription;

/** What a refused call must leave as it was: the row and the events about it. */
async function snapshot(id: string) {
  const row = await db().subscription.findUniqueOrThrow({ where: { id } });
  return { row, events: await db().webhookEvent.count({ where: { subjectId: id } }) };
}

afterEach(() => setNow(TEST_NOW));

describe("pause and resume a recurring subscription", () => {
  it("no charge while paused however long; resumed: the period end and the next charge move by the time paused", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    setNow(at(T + 10 * DAY));
    const paused = await pause(s.id);
    expect(paused.errors).toEqual([]);
    expect(paused.subscription).toMatchObject({ state: "active", isPaused: true, pausedAt: T + 10 * DAY, nextChargeDate: null, currentPeriodEnd: DEC_21 });

    // Two renewal runs past the period end: nothing claimed, nothing charged.
    for (const d of [31, 70]) await renewDueSubscriptions({ now: at(T + d * DAY) });
    expect(await providerChargesOf(s.id)).toHaveLength(1);
    setNow(at(T + 70 * DAY));
    expect(await readBilled(app, s.id)).toMatchObject({ state: "active", currentPeriodEnd: DEC_21 });

    const resumed = await resume(s.id);
    expect(resumed.errors).toEqual([]);
    const end = DEC_21 + 60 * DAY;
    expect(resumed.subscription).toMatchObject({ state: "active", isPaused: false, pausedAt: null, currentPeriodStart: T, currentPeriodEnd: end, nextChargeDate: end });

    // Not due before the moved end; renewed once at it.
    await renewDueSubscriptions({ now: at(end - 1) });
    expect(await providerChargesOf(s.id)).toHaveLength(1);
    await renewDueSubscriptions({ now: at(end) });
    const renewed = await readBilled(app, s.id);
    expect(renewed).toMatchObject({ state: "active", currentPeriodStart: end });
    expect(renewed.payments.map((p: { state: string; amount: string }) => [p.state, p.amount])).toEqual([["succeeded", "29.00"], ["succeeded", "29.00"]]);
    expect(await billingEventsOf(s.id)).toEqual([
      "subscription.created",
      "payment.succeeded",
      "subscription.activated",
      "subscription.paused",
      "subscription.resumed",
      "payment.succeeded",
      "subscription.renewed",
    ]);
  });

  it("an externally collected one does not renew while paused either", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect((await pause(s.id)).errors).toEqual([]);
    await renewDueSubscriptions({ now: at(DEC_21 + DAY) });
    setNow(at(DEC_21 + DAY));
    expect(await readBilled(app, s.id)).toMatchObject({ currentPeriodEnd: DEC_21, nextChargeDate: null });
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "subscription.paused"]);
  });

  it("the settle pass does not expire a paused specific_length subscription; its end moves on resume, then it expires", async () => {
    const s = await subscribe(app, PLANS.bootcamp);
    const endAt = (await readBilled(app, s.id)).endAt as number;
    expect(endAt).toBeGreaterThan(T);
    setNow(at(T + DAY));
    expect((await pause(s.id)).errors).toEqual([]);
    setNow(at(endAt + 5 * DAY));
    expect(await readBilled(app, s.id)).toMatchObject({ state: "active" });
    const resumed = await resume(s.id);
    // Paused from T + 1 day to endAt + 5 days: the end moves by that much.
    expect(resumed.subscription).toMatchObject({ state: "active", endAt: endAt + (endAt + 5 * DAY - (T + DAY)) });
    setNow(at(resumed.subscription.endAt));
    expect(await readBilled(app, s.id)).toMatchObject({ state: "expired" });
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "subscription.paused", "subscription.resumed", "subscription.expired"]);
  });

  it("canceling a paused subscription ends it now (its period does not run)", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await pause(s.id);
    const r = await gql(app, CANCEL, { input: { id: s.id, cancelAtPeriodEnd: true } });
    expect(r.body.data.cancelSubscription.subscription).toMatchObject({ state: "canceled", canceledAt: T, endAt: T });
  });

  it("the member's account shows it paused (no access)", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await pause(s.id);
    const row = await db().subscription.findUniqueOrThrow({ where: { id: s.id } });
    const subs = await memberSubscriptions({ schoolId: DEMO_IDS.school, userId: row.userId, now: TEST_NOW });
    expect(subs.find((x) => x.id === s.id)).toMatchObject({ state: "active", paused: true });
  });
});

describe("refused input writes nothing", () => {
  it("each rule, first failure wins", async () => {
    const live = await subscribe(app, PLANS.monthly);
    const lifetime = await subscribe(app, PLANS.lifetime);
    const canceling = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: canceling.id, cancelAtPeriodEnd: true } });
    const canceled = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: canceled.id, cancelAtPeriodEnd: false } });
    const incomplete = (await gql(app, `mutation C($input: AdminCreateSubscriptionInput!) { createSubscription(input: $input) { errors subscription { id state } } }`, {
      input: { email: `declined.${Date.now()}@example.com`, name: "D", planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: CARDS.declined },
    })).body.data.createSubscription.subscription;
    expect(incomplete.state).toBe("incomplete");

    const cases: [string, () => Promise<{ errors: string[]; subscription: unknown }>, string][] = [
      [live.id, () => resume(live.id), NOT_PAUSED],
      [lifetime.id, () => pause(lifetime.id), LIFETIME_NOT_PAUSABLE],
      [canceling.id, () => pause(canceling.id), CANCELING_NOT_PAUSABLE],
      [canceled.id, () => pause(canceled.id), NOT_PAUSABLE],
      [incomplete.id, () => pause(incomplete.id), NOT_PAUSABLE],
      [live.id, () => pause(live.id, { key: NO_PERMISSIONS_KEY }), "Unauthorized"],
      [live.id, () => resume(live.id, { key: NO_PERMISSIONS_KEY }), "Unauthorized"],
    ];
    for (const [id, run, message] of cases) {
      const before = await snapshot(id);
      expect(await run(), message).toEqual({ errors: [message], subscription: null });
      expect(await snapshot(id), message).toEqual(before);
    }
    expect(await pause("00000000-0000-4000-8000-000000000000")).toEqual({ errors: ["Subscription not found"], subscription: null });
    expect(await pause("not-a-uuid")).toEqual({ errors: ["Subscription not found"], subscription: null });

    expect((await pause(live.id)).errors).toEqual([]);
    const paused = await snapshot(live.id);
    expect(await pause(live.id)).toEqual({ errors: [ALREADY_PAUSED], subscription: null });
    expect(await snapshot(live.id)).toEqual(paused);
  });

  it("an Idempotency-Key retry answers the first result and pauses once", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const headers = { "idempotency-key": `pause-${s.id}` };
    const first = await gql(app, PAUSE, { input: { id: s.id } }, { headers });
    const again = await gql(app, PAUSE, { input: { id: s.id } }, { headers });
    expect(first.body.data.pauseSubscription.errors).toEqual([]);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "subscription.paused"]);
  });
});

describe("MCP staff tools", () => {
  it("pause_subscription and resume_subscription: dry run writes nothing, idempotency_key replays, the rules' messages", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    const before = await snapshot(s.id);
    const dry = await call(client, "pause_subscription", { id: s.id, dry_run: true });
    expect(dry.structuredContent).toMatchObject({ dryRun: true, subscription: { isPaused: true } });
    expect(await snapshot(s.id)).toEqual(before);

    const first = await call(client, "pause_subscription", { id: s.id, idempotency_key: `mcp-pause-${s.id}` });
    expect(first.structuredContent).toMatchObject({ dryRun: false, subscription: { isPaused: true, pausedAt: T } });
    expect(text(first)).toContain("(paused)");
    const replay = await call(client, "pause_subscription", { id: s.id, idempotency_key: `mcp-pause-${s.id}` });
    expect(replay._meta).toMatchObject({ "schoolhouse/idempotent_replay": true });
    expect(text(await call(client, "pause_subscription", { id: s.id }))).toBe(ALREADY_PAUSED);

    setNow(at(T + 3 * DAY));
    const resumed = await call(client, "resume_subscription", { id: s.id });
    expect(resumed.structuredContent).toMatchObject({ subscription: { isPaused: false, currentPeriodEnd: DEC_21 + 3 * DAY, nextChargeDate: DEC_21 + 3 * DAY } });
    expect(text(await call(client, "resume_subscription", { id: s.id }))).toBe(NOT_PAUSED);
    expect(await billingEventsOf(s.id)).toEqual(["subscription.created", "subscription.paused", "subscription.resumed"]);
    await client.close();

    const none = await mcpClient(app, NO_PERMISSIONS_KEY);
    expect(text(await call(none, "pause_subscription", { id: s.id }))).toBe("Unauthorized");
    await none.close();
  });
});
