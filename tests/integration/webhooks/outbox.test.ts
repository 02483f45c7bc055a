// The transactional outbox: every membership change writes its event (and one delivery per
// subscribed endpoint) in its own transaction; a change that rolls back writes nothing.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { runScheduledJobs } from "@/lib/admin-api/cron";
import { createSubscription } from "@/lib/membership/create-subscription";
import { recordEvent } from "@/lib/db/outbox";
import { CANCEL, CREATE, PLANS, TEST_NOW, adminAppForSuite, freshEmail, gql, subscribe } from "../admin-api/helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const app = adminAppForSuite();
const UPDATE = `mutation U($input: AdminUpdateSubscriptionInput!) { updateSubscription(input: $input) { errors subscription { id state } } }`;
const ENROLL = `mutation E($input: EnrollStudentToCourseInput!) { enrollStudentToCourse(input: $input) { errors enrollment { id } } }`;

interface Body {
  type: string;
  id: string;
  timestamp: number;
  data: Record<string, unknown> & { id: string };
}
const eventsOf = async (subjectId: string) =>
  (await db().webhookEvent.findMany({ where: { subjectId }, orderBy: { createdAt: "asc" } })).map((e) => ({ row: e, body: JSON.parse(e.payload) as Body }));
const typesOf = async (subjectId: string) => (await eventsOf(subjectId)).map((e) => e.body.type);

let courseId: string;
beforeAll(async () => {
  courseId = (await db().course.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school } })).id;
});
afterEach(() => setNow(TEST_NOW));

describe("events from the Admin API", () => {
  it("createSubscription for a new user: member.created and subscription.created, payload in the Admin API's shape", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const [created] = await eventsOf(s.id);
    expect(created!.body).toEqual({ type: "subscription.created", id: created!.row.id, timestamp: T, data: expect.objectContaining({ id: s.id, state: "active" }) });
    // Exactly what the Admin API returned for the same fields (Unix seconds, plan and user nested).
    for (const k of ["startAt", "currentPeriodEnd", "nextChargeDate", "createdAt", "updatedAt", "isCanceling", "planId"]) expect(created!.body.data[k]).toEqual(s[k]);
    expect(created!.body.data.user).toEqual(s.user);
    expect(created!.row.schoolId).toBe(DEMO_IDS.school);
    expect(await typesOf(s.user.id)).toEqual(["member.created"]);
    expect((await eventsOf(s.user.id))[0]!.body.data).toEqual({ id: s.user.id, email: s.user.email, name: "Test Member" });
  });

  it("an existing member subscribing again: subscription.created only", async () => {
    const s = await subscribe(app, PLANS.monthly);
    const r = await gql(app, CREATE, { input: { email: s.user.email, planId: PLANS.lifetime } });
    expect(r.body.data.createSubscription.errors).toEqual([]);
    expect(await typesOf(s.user.id)).toEqual(["member.created"]);
    expect(await typesOf(r.body.data.createSubscription.subscription.id)).toEqual(["subscription.created"]);
  });

  it("updateSubscription: subscription.updated; shortening a fixed plan into the past: updated then expired", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await gql(app, UPDATE, { input: { id: s.id, currentPeriodEnd: T + 40 * DAY } });
    const events = await eventsOf(s.id);
    expect(events.map((e) => e.body.type)).toEqual(["subscription.created", "subscription.updated"]);
    expect(events[1]!.body.data.currentPeriodEnd).toBe(T + 40 * DAY);

    setNow(new Date((T - 10 * DAY) * 1000));
    const fixed = await subscribe(app, PLANS.bootcamp);
    setNow(TEST_NOW);
    const shortened = await gql(app, UPDATE, { input: { id: fixed.id, currentPeriodEnd: T - DAY } });
    // The answer is the subscription as the same transaction settled it.
    expect(shortened.body.data.updateSubscription.subscription.state).toBe("expired");
    expect(await typesOf(fixed.id)).toEqual(["subscription.created", "subscription.updated", "subscription.expired"]);
  });

  it("cancelSubscription: subscription.canceling when scheduled, subscription.canceled when immediate", async () => {
    const scheduled = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: scheduled.id } });
    const now = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: now.id, cancelAtPeriodEnd: false } });
    expect(await typesOf(scheduled.id)).toEqual(["subscription.created", "subscription.canceling"]);
    expect((await eventsOf(scheduled.id))[1]!.body.data).toMatchObject({ isCanceling: true, cancelAt: scheduled.currentPeriodEnd });
    expect(await typesOf(now.id)).toEqual(["subscription.created", "subscription.canceled"]);
  });

  it("enrollStudentToCourse: member.created and enrollment.created once; enrolling twice is not a change", async () => {
    const email = freshEmail("enroll");
    const first = await gql(app, ENROLL, { input: { courseId, email, name: "Enrolled" } });
    const again = await gql(app, ENROLL, { input: { courseId, email } });
    const id = first.body.data.enrollStudentToCourse.enrollment.id;
    expect(again.body.data.enrollStudentToCourse.enrollment.id).toBe(id);
    const events = await eventsOf(id);
    expect(events.map((e) => e.body.type)).toEqual(["enrollment.created"]);
    expect(events[0]!.body.data).toMatchObject({ id, course: { id: courseId }, user: { email } });
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await typesOf(user.id)).toEqual(["member.created"]);
  });

  it("failed mutations write nothing", async () => {
    const before = await db().webhookEvent.count();
    await gql(app, CREATE, { input: { email: freshEmail(), planId: PLANS.monthly } }); // name required
    await gql(app, CANCEL, { input: { id: (await subscribe(app, PLANS.lifetime)).id } }); // not cancellable
    expect(await db().webhookEvent.count()).toBe(before + 2); // the lifetime subscribe's own two events
  });
});

describe("events from time passing", () => {
  it("the settle pass reports the rows it changed and writes subscription.canceled / subscription.expired", async () => {
    setNow(TEST_NOW);
    const canceling = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: canceling.id } });
    const fixed = await subscribe(app, PLANS.summerCohort, { expireAt: T + 3 * DAY });
    setNow(new Date((canceling.currentPeriodEnd + 60) * 1000));
    const result = await runScheduledJobs({ now: new Date((canceling.currentPeriodEnd + 60) * 1000) });
    expect(result.canceledIds).toContain(canceling.id);
    expect(result.expiredIds).toContain(fixed.id);
    expect(result.canceled).toBe(result.canceledIds.length);
    expect(await typesOf(canceling.id)).toEqual(["subscription.created", "subscription.canceling", "subscription.canceled"]);
    expect((await eventsOf(canceling.id))[2]!.body.data).toMatchObject({ state: "canceled", canceledAt: canceling.currentPeriodEnd });
    expect(await typesOf(fixed.id)).toEqual(["subscription.created", "subscription.expired"]);
    // Idempotent: a second pass changes nothing and writes nothing.
    const again = await runScheduledJobs({ now: new Date((canceling.currentPeriodEnd + 120) * 1000) });
    expect(again.canceledIds).not.toContain(canceling.id);
    expect(await typesOf(canceling.id)).toHaveLength(3);
  });
});

describe("nothing written when the change rolls back", () => {
  it("a subscription insert that fails after member.created was written leaves no event, no user", async () => {
    await db().$executeRawUnsafe(`CREATE FUNCTION test_reject() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'rejected by test'; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER test_reject BEFORE INSERT ON "Subscription" FOR EACH ROW EXECUTE FUNCTION test_reject()`);
    const before = await db().webhookEvent.count();
    const email = freshEmail("rollback");
    try {
      await expect(createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email, name: "Rolled Back", planId: PLANS.monthly }, now: TEST_NOW })).rejects.toThrow(/rejected by test/);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER test_reject ON "Subscription"`);
      await db().$executeRawUnsafe(`DROP FUNCTION test_reject()`);
    }
    expect(await db().webhookEvent.count()).toBe(before);
    expect(await db().user.findUnique({ where: { email } })).toBeNull();
  });

  it("an outbox write that fails rolls the change back (the Admin API reports an error, nothing changes)", async () => {
    const s = await subscribe(app, PLANS.monthly);
    await db().$executeRawUnsafe(`CREATE FUNCTION test_reject_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox down'; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER test_reject_event BEFORE INSERT ON "WebhookEvent" FOR EACH ROW EXECUTE FUNCTION test_reject_event()`);
    try {
      const r = await gql(app, CANCEL, { input: { id: s.id, cancelAtPeriodEnd: false } });
      expect(r.body.data?.cancelSubscription ?? null).toBeNull();
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER test_reject_event ON "WebhookEvent"`);
      await db().$executeRawUnsafe(`DROP FUNCTION test_reject_event()`);
    }
    expect((await db().subscription.findUniqueOrThrow({ where: { id: s.id } })).state).toBe("active");
    expect(await typesOf(s.id)).toEqual(["subscription.created"]);
  });

  it("a transaction that records an event and then throws leaves no event and no delivery", async () => {
    const endpoint = await db().webhookEndpoint.create({
      data: { schoolId: DEMO_IDS.school, url: "https://hooks.example/in", events: ["*"], secretCiphertext: "x", createdAt: TEST_NOW, updatedAt: TEST_NOW },
    });
    const [events, deliveries] = [await db().webhookEvent.count(), await db().webhookDelivery.count()];
    await expect(
      db().$transaction(async (tx) => {
        await recordEvent(tx, { event: { schoolId: DEMO_IDS.school, type: "member.created", subjectId: DEMO_IDS.users.student, data: {} }, now: TEST_NOW });
        expect(await tx.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(1);
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect([await db().webhookEvent.count(), await db().webhookDelivery.count()]).toEqual([events, deliveries]);
    await db().webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});

describe("fan-out", () => {
  it("one delivery per enabled endpoint of the school subscribed to the type, none for other schools or disabled ones", async () => {
    const mk = (schoolId: string, events: string[], disabledAt: Date | null = null) =>
      db().webhookEndpoint.create({ data: { schoolId, url: "https://hooks.example/in", events, secretCiphertext: "x", disabledAt, createdAt: TEST_NOW, updatedAt: TEST_NOW } });
    const all = await mk(DEMO_IDS.school, ["*"]);
    const onlyCreated = await mk(DEMO_IDS.school, ["subscription.created"]);
    const onlyCanceled = await mk(DEMO_IDS.school, ["subscription.canceled"]);
    const disabled = await mk(DEMO_IDS.school, ["*"], TEST_NOW);
    const acme = await mk(DEMO_IDS.acmeSchool, ["*"]);
    const s = await subscribe(app, PLANS.monthly);
    const [created] = await eventsOf(s.id);
    const targets = (await db().webhookDelivery.findMany({ where: { eventId: created!.row.id } })).map((d) => d.endpointId).sort();
    expect(targets).toEqual([all.id, onlyCreated.id].sort());
    for (const d of await db().webhookDelivery.findMany({ where: { eventId: created!.row.id } })) {
      expect(d).toMatchObject({ status: "pending", attemptCount: 0, schoolId: DEMO_IDS.school });
      expect(d.nextAttemptAt).toEqual(TEST_NOW);
    }
    expect(await db().webhookDelivery.count({ where: { endpointId: { in: [onlyCanceled.id, disabled.id, acme.id] } } })).toBe(0);
    await db().webhookEndpoint.deleteMany({ where: { id: { in: [all.id, onlyCreated.id, onlyCanceled.id, disabled.id, acme.id] } } });
  });
});
