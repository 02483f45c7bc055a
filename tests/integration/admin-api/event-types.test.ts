// `eventTypes` (issue 29, item 5): every webhook event type with its body's shape, field by field,
// and the shape is the one real deliveries have.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { WEBHOOK_EVENT_TYPES } from "@/lib/db/outbox";
import { CANCEL, DEMO_IDS, NO_PERMISSIONS_KEY, PLANS, adminAppForSuite, freshEmail, gql, subscribe } from "./helpers";

const app = adminAppForSuite();
const EVENT_TYPES = "{ eventTypes { type description dataType fields { path type description } } }";
type EventTypeJson = { type: string; description: string; dataType: string; fields: { path: string; type: string; description: string }[] };

/** Every key path of a JSON body; objects are entered, arrays and nulls are leaves. */
function paths(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const p = prefix ? `${prefix}.${k}` : k;
    return [p, ...paths(v, p)];
  });
}

describe("eventTypes", () => {
  it("lists every event type, described, to any valid key", async () => {
    const r = await gql(app, EVENT_TYPES, {}, { key: NO_PERMISSIONS_KEY });
    expect(r.status).toBe(200);
    const list = r.body.data.eventTypes as EventTypeJson[];
    expect(list.map((e) => e.type)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const e of list) {
      expect(e.description.length).toBeGreaterThan(10);
      expect(e.fields.slice(0, 4).map((f) => f.path)).toEqual(["type", "id", "timestamp", "data"]);
      expect(new Set(e.fields.map((f) => f.path)).size).toBe(e.fields.length);
      expect(e.fields.every((f) => /^\[?[A-Za-z]+!?\]?!?$/.test(f.type))).toBe(true);
    }
    expect((await gql(app, EVENT_TYPES, {}, { key: null })).status).toBe(401);
  });

  it("describes exactly the fields real delivery bodies have", async () => {
    const sub = await subscribe(app, PLANS.monthly);
    await gql(app, CANCEL, { input: { id: sub.id, cancelAtPeriodEnd: false } });
    await gql(app, `mutation E($input: EnrollStudentToCourseInput!) { enrollStudentToCourse(input: $input) { errors } }`, {
      input: { courseId: DEMO_IDS.courses.introToSql, email: freshEmail("ev"), name: "Event Shape" },
    });
    const list = (await gql(app, EVENT_TYPES)).body.data.eventTypes as EventTypeJson[];
    const events = await db().webhookEvent.findMany({ where: { schoolId: DEMO_IDS.school } });
    const seen = new Set<string>();
    for (const event of events) {
      const described = list.find((e) => e.type === event.type)!;
      const body = JSON.parse(event.payload) as { data: Record<string, unknown> };
      const actual = paths(body);
      expect(actual.filter((p) => !described.fields.some((f) => f.path === p)), event.type).toEqual([]);
      // Every described field is in the body, unless an object above it is null.
      const missing = described.fields.filter((f) => !actual.includes(f.path)).map((f) => f.path);
      expect(missing.filter((p) => !actual.some((a) => p.startsWith(`${a}.`))), event.type).toEqual([]);
      seen.add(event.type);
    }
    expect([...seen].sort()).toEqual(["enrollment.created", "member.created", "subscription.canceled", "subscription.created"]);
  });
});
