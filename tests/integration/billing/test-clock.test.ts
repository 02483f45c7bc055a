// A test-mode school's test clock (Stripe's test clocks): moving it runs that school's renewals,
// retries and expiries in time order, at the times they fall due, without touching real time; the
// real-time run leaves a school with a clock alone.
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { advanceTestClock, CLOCK_MOVES_FORWARD, NOT_TEST_MODE } from "@/lib/billing/advance-test-clock";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { DEMO_IDS, PLANS, TEST_NOW, adminAppForSuite, subscribe } from "../admin-api/helpers";
import { CARDS, billingEventsOf, providerChargesOf, readBilled, subscribeWithCard } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = adminAppForSuite();
const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const school = DEMO_IDS.school;

afterEach(() => setNow(TEST_NOW));

describe("test clock", () => {
  it("a year forward: twelve monthly renewals paid at their due times; a card failing off-session ends after its retries", async () => {
    const good = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const failing = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
    const external = await subscribe(app, PLANS.monthly);
    const to = new Date(TEST_NOW.getTime() + 365 * DAY * 1000);
    // An endpoint for the renewals' webhooks (the worker is not run: only when they fall due is checked).
    const endpoint = await db().webhookEndpoint.create({ data: { schoolId: school, url: "https://hooks.example.test/clock", events: ["subscription.renewed"], secretCiphertext: "unused", createdAt: TEST_NOW, updatedAt: TEST_NOW } });
    const r = await advanceTestClock({ actor: TEST_ACTOR, schoolId: school, to, now: TEST_NOW });
    if ("error" in r) throw new Error(r.error);
    // delivers at once: what happened at the clock's future times is due now, stamped with those times.
    const realNow = new Date();
    const deliveries = await db().webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { event: true } });
    expect(deliveries.filter((d) => d.event.subjectId === good.id).length).toBeGreaterThanOrEqual(12);
    for (const d of deliveries) expect(d.nextAttemptAt!.getTime()).toBeLessThanOrEqual(realNow.getTime());
    expect(deliveries.some((d) => d.event.createdAt > realNow)).toBe(true);
    const futureMails = await db().mailMessage.findMany({ where: { schoolId: school, createdAt: { gt: realNow } } });
    expect(futureMails.length).toBeGreaterThan(0);
    for (const m of futureMails) expect(m.nextAttemptAt!.getTime()).toBeLessThanOrEqual(realNow.getTime());
    await db().webhookEndpoint.delete({ where: { id: endpoint.id } });
    expect((await db().schoolBilling.findUniqueOrThrow({ where: { schoolId: school } })).testClockAt).toEqual(to);
    // The move is the operator's row; the renewals it ran are the system's.
    const moved = await db().auditEvent.findMany({ where: { schoolId: school, action: "school.advance_test_clock" } });
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({ actorType: TEST_ACTOR.type, actorLabel: TEST_ACTOR.label, targetId: school, summary: { testClockAt: { from: TEST_NOW.toISOString(), to: to.toISOString() }, succeeded: r.succeeded } });
    expect(await db().auditEvent.count({ where: { schoolId: school, actorType: "system", action: { in: ["payment.collect", "subscription.renew"] } } })).toBeGreaterThan(0);

    const paid = await readBilled(app, good.id);
    const succeeded = paid.payments.filter((p: { state: string }) => p.state === "succeeded");
    expect(succeeded).toHaveLength(13);
    // Each period paid once, back to back, each when it began.
    for (let i = 1; i < succeeded.length; i++) {
      expect(succeeded[i].periodStart).toBe(succeeded[i - 1].periodEnd);
      expect(succeeded[i].paidAt).toBe(succeeded[i].periodStart);
    }
    expect(paid).toMatchObject({ state: "active", currentPeriodStart: succeeded[12].periodStart, currentPeriodEnd: succeeded[12].periodEnd });
    expect(await providerChargesOf(good.id)).toHaveLength(13);

    const ended = await readBilled(app, failing.id);
    expect(ended).toMatchObject({ state: "canceled", cancelType: "payment_failed" });
    // Failed on 21 Dec, then retries 3, 5 and 7 days apart.
    const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
    expect(ended.payments.filter((p: { state: string }) => p.state === "failed").map((p: { failedAt: number }) => p.failedAt)).toEqual([
      DEC_21,
      DEC_21 + 3 * DAY,
      DEC_21 + 8 * DAY,
      DEC_21 + 15 * DAY,
    ]);
    expect(await billingEventsOf(failing.id)).toEqual([
      "subscription.created",
      "payment.succeeded",
      "subscription.activated",
      "payment.failed",
      "subscription.past_due",
      "payment.failed",
      "payment.failed",
      "payment.failed",
      "subscription.canceled",
    ]);

    const renewedExternally = await readBilled(app, external.id);
    expect(renewedExternally.payments).toEqual([]);
    expect(renewedExternally.currentPeriodEnd).toBeGreaterThan(toUnixSeconds(to)!);
    expect(renewedExternally.currentPeriodStart).toBeLessThanOrEqual(toUnixSeconds(to)!);

    // Real time never moved, and the real-time run leaves a school on a clock alone.
    const later = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const before = (await readBilled(app, later.id)).payments.length;
    await renewDueSubscriptions({ now: new Date((T + 40 * DAY) * 1000) });
    expect((await readBilled(app, later.id)).payments).toHaveLength(before);
  });

  it("moves only forward, and only for a school in test mode", async () => {
    const current = (await db().schoolBilling.findUnique({ where: { schoolId: school } }))?.testClockAt ?? TEST_NOW;
    expect(await advanceTestClock({ actor: TEST_ACTOR, schoolId: school, to: current, now: TEST_NOW })).toEqual({ error: CLOCK_MOVES_FORWARD });
    await db().schoolBilling.upsert({ where: { schoolId: DEMO_IDS.acmeSchool }, create: { schoolId: DEMO_IDS.acmeSchool, livemode: true }, update: { livemode: true } });
    expect(await advanceTestClock({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, to: new Date(TEST_NOW.getTime() + 1000), now: TEST_NOW })).toEqual({ error: NOT_TEST_MODE });
    // A refused move writes no row.
    expect(await db().auditEvent.count({ where: { action: "school.advance_test_clock" } })).toBe(1);
  });
});
