import { beforeAll, describe, expect, it } from "vitest";
import { consoleAuditList, daySeconds } from "@/lib/console/audit-list";
import { INVALID_PAGE_LINK } from "@/lib/console/paging";
import { db } from "@/lib/db/client";
import { createSubscription } from "@/lib/membership/create-subscription";
import { seedDemo } from "@/lib/startup/seed/seed";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// The console's audit log page (/manage/audit) below Next: its address read into listAuditEvents'
// filters, each filter applied, a day range that includes both days, and every refusal a message
// with the log it can show.
const KEY_ACTOR = { type: "api_key", id: "key-1", label: "Reporting key", credentialId: "key-1", requestId: "req-1", ip: "203.0.113.9" } as const;
let subscriptionId = "";

beforeAll(async () => {
  await seedDemo({ prisma: db() });
  const created = await createSubscription({ actor: KEY_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: DEMO_IDS.plans.monthly }, now: new Date() });
  if (!created.record) throw new Error(created.errors.join("; "));
  subscriptionId = created.record.id;
  await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { email: "employee@schoolhouse.test", planId: DEMO_IDS.plans.acmeAnnual }, now: new Date() });
});

const today = () => new Date().toISOString().slice(0, 10);
const list = (query: Record<string, string | string[]>) => consoleAuditList({ schoolId: DEMO_IDS.school, query });

describe("the console's audit log", () => {
  it("shows this school's rows only, newest first", async () => {
    const { page, refused } = await list({});
    expect(refused).toBeNull();
    expect(page.nodes.length).toBeGreaterThan(0);
    for (const e of page.nodes) expect(e.schoolId).toBe(DEMO_IDS.school);
    const times = page.nodes.map((e) => e.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("filters by who, action and target", async () => {
    const byKey = await list({ actor: "api_key" });
    expect(byKey.page.nodes.map((e) => e.actorLabel)).toEqual(["Reporting key"]);
    const byAction = await list({ action: "subscription.create" });
    expect(byAction.page.nodes.length).toBeGreaterThan(0);
    for (const e of byAction.page.nodes) expect(e.action).toBe("subscription.create");
    const byTarget = await list({ target: subscriptionId });
    expect(byTarget.page.nodes.map((e) => e.targetId)).toEqual([subscriptionId]);
    expect(byTarget.page.nodes[0]).toMatchObject({ ip: "203.0.113.9", requestId: "req-1", credentialId: "key-1" });
  });

  it("reads from and to as whole UTC days, both included", async () => {
    expect((await list({ from: today(), to: today() })).page.nodes.length).toBeGreaterThan(0);
    expect((await list({ to: "2001-01-01" })).page.nodes).toEqual([]);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list({ from: tomorrow })).page.nodes).toEqual([]);
  });

  it("says what it refused and shows the log it can", async () => {
    const all = (await list({})).page.nodes.length;
    const badDay = await list({ from: "2026-02-31" });
    expect(badDay.refused).toBe('"From" must be a day as YYYY-MM-DD.');
    expect(badDay.filters.from).toBe("");
    expect(badDay.page.nodes.length).toBe(all);
    const backwards = await list({ from: "2026-12-01", to: "2026-01-01" });
    expect(backwards.refused).toBe("since must not be after until");
    expect(backwards.page.nodes.length).toBe(all);
    const forged = await list({ after: "eyJrIjoiZSJ9" });
    expect(forged.refused).toBe(INVALID_PAGE_LINK);
    // An actor type that is none is not applied (the form shows "Anyone"); an unknown action finds nothing.
    expect((await list({ actor: "root" })).filters.actor).toBe("");
    expect((await list({ action: "x".repeat(500) })).page.nodes).toEqual([]);
  });

  it("pages by cursor without repeating or skipping a row", async () => {
    const total = await db().auditEvent.count({ where: { schoolId: DEMO_IDS.school } });
    const seen = new Set<string>();
    let after: string | null = null;
    do {
      const query: Record<string, string> = after ? { after } : {};
      const { page } = await list(query);
      for (const e of page.nodes) seen.add(e.id);
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen.size).toBe(total);
  });
});

describe("daySeconds", () => {
  it("takes real days only", () => {
    expect(daySeconds("2026-11-26")).toBe(Date.UTC(2026, 10, 26) / 1000);
    for (const bad of ["2026-02-31", "2026-13-01", "26-11-26", "2026-11-26T00:00", " 2026-11-26", "+02026-01-01"]) expect(daySeconds(bad), bad).toBeNull();
  });
});
