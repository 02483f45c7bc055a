import { describe, expect, it } from "vitest";
import { advance } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { readdirSync } from "node:fs";
import { ACME_API_KEY, DEMO_IDS, GET_SUBSCRIPTION, NO_PERMISSIONS_KEY, PLANS, freshEmail, gql, subscribe, adminAppForSuite } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = adminAppForSuite();
const ENROLL = `mutation($input: EnrollStudentToCourseInput!) {
  enrollStudentToCourse(input: $input) { errors enrollment { id createdAt course { id title } user { id email name } } }
}`;
const COURSE = DEMO_IDS.courses.introToSql;
const DEMO_COURSE_FILES = readdirSync("content/demo/courses").length;

describe("membershipPlans", () => {
  it("lists the key's school's plans with their fields", async () => {
    const r = await gql(app, "{ membershipPlans { id name slug planType isLifetime interval intervalCount price currency lengthCount lengthInterval fixedEndAt status } }");
    const plans = r.body.data.membershipPlans;
    expect(plans.map((p: { id: string }) => p.id)).toEqual([PLANS.monthly, PLANS.summerCohort, PLANS.bootcamp, PLANS.lifetime, PLANS.legacyAnnual]);
    expect(plans[0]).toEqual({
      id: PLANS.monthly, name: "Monthly Membership", slug: "monthly", planType: "recurring", isLifetime: false, interval: "month",
      intervalCount: 1, price: "29.00", currency: "USD", lengthCount: null, lengthInterval: null, fixedEndAt: null, status: "published",
    });
    expect(plans[1]).toMatchObject({ planType: "fixed_date", fixedEndAt: Date.UTC(2027, 8, 1) / 1000 });
    expect(plans[2]).toMatchObject({ planType: "specific_length", lengthCount: 90, lengthInterval: "day" });
    expect(plans[3]).toMatchObject({ planType: "lifetime", isLifetime: true, interval: null });
    const acme = await gql(app, "{ membershipPlans { id } }", {}, { key: ACME_API_KEY });
    expect(acme.body.data.membershipPlans).toEqual([{ id: PLANS.acmeAnnual }]);
  });
});

describe("subscription(id) and subscriptions", () => {
  it("reads one subscription of the school; another school's or an unknown id is null", async () => {
    const s = await subscribe(app, PLANS.monthly);
    expect((await gql(app, GET_SUBSCRIPTION, { id: s.id })).body.data.subscription).toMatchObject({ id: s.id, state: "active" });
    expect((await gql(app, GET_SUBSCRIPTION, { id: s.id }, { key: ACME_API_KEY })).body.data.subscription).toBeNull();
    expect((await gql(app, GET_SUBSCRIPTION, { id: "nope" })).body.data.subscription).toBeNull();
  });

  it("paginates with cursors, oldest first, up to 100 per page", async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push((await subscribe(app, PLANS.lifetime)).id);
      advance(1000);
    }
    const Q = `query($first: Int, $after: String, $planId: String) {
      subscriptions(first: $first, after: $after, planId: $planId) { nodes { id } pageInfo { hasNextPage endCursor } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const r = await gql(app, Q, { first: 2, after, planId: PLANS.lifetime });
      const page = r.body.data.subscriptions;
      expect(page.nodes.length).toBeLessThanOrEqual(2);
      seen.push(...page.nodes.map((n: { id: string }) => n.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(created);
    for (const first of [0, 101, -1]) {
      const r = await gql(app, Q, { first });
      expect(r.body.data.subscriptions).toBeNull();
      expect(r.body.errors[0]).toMatchObject({ message: "first must be between 1 and 100", extensions: { code: "BAD_USER_INPUT" } });
    }
    const bad = await gql(app, Q, { after: "garbage" });
    expect(bad.body.errors[0].message).toBe("after is not a valid cursor");
  });

  it("a cursor whose time the database cannot hold is a BAD_USER_INPUT error, never an internal one (issue 11)", async () => {
    const Q = `query($after: String) { subscriptions(first: 1, after: $after) { nodes { id } } }`;
    const cursor = (c: unknown) => Buffer.from(JSON.stringify({ c, i: "5c400000-0000-4000-8000-000000000001" })).toString("base64url");
    for (const c of ["+275760-09-13T00:00:00.000Z", "-271821-04-20T00:00:00.000Z", "-000001-01-01T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "+010000-01-01T00:00:00.000Z", "2026-02-31T00:00:00.000Z", "2026-11-21", 8.64e15, null]) {
      const r = await gql(app, Q, { after: cursor(c) });
      expect(r.body.data?.subscriptions ?? null, String(c)).toBeNull();
      expect(r.body.errors, String(c)).toEqual([expect.objectContaining({ message: "after is not a valid cursor", extensions: { code: "BAD_USER_INPUT" } })]);
    }
    // The extremes of what we write are cursors like any other.
    for (const c of ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]) {
      const r = await gql(app, Q, { after: cursor(c) });
      expect(r.body.errors, c).toBeUndefined();
      expect(r.body.data.subscriptions.nodes.length, c).toBe(c.startsWith("0001") ? 1 : 0);
    }
  });

  it("filters by email and state, and only lists the key's school", async () => {
    const s = await subscribe(app, PLANS.bootcamp);
    const r = await gql(app, `query($email: String) { subscriptions(email: $email) { nodes { id user { email } } } }`, { email: s.user.email.toUpperCase() });
    expect(r.body.data.subscriptions.nodes).toEqual([{ id: s.id, user: { email: s.user.email } }]);
    const canceled = await gql(app, `{ subscriptions(state: "canceled") { nodes { id } } }`);
    expect(canceled.body.data.subscriptions.nodes).toEqual([]);
    const badState = await gql(app, `{ subscriptions(state: "sleeping") { nodes { id } } }`);
    expect(badState.body.errors[0].message).toMatch(/^state must be one of: active, /);
    const acme = await gql(app, `{ subscriptions { nodes { id } } }`, {}, { key: ACME_API_KEY });
    expect(acme.body.data.subscriptions.nodes.map((n: { id: string }) => n.id)).not.toContain(s.id);
  });
});

describe("courses and enrollStudentToCourse", () => {
  it("courses(first) lists the school's courses in catalog order", async () => {
    const r = await gql(app, "{ courses(first: 2) { nodes { id slug title status price currency } } }");
    expect(r.body.data.courses.nodes).toEqual([
      { id: DEMO_IDS.courses.introToSql, slug: "intro-to-sql", title: "Intro to SQL", status: "published", price: "49.00", currency: "USD" },
      { id: DEMO_IDS.courses.pythonForDataAnalysis, slug: "python-for-data-analysis", title: "Python for Data Analysis", status: "published", price: "89.00", currency: "USD" },
    ]);
    expect((await gql(app, "{ courses { nodes { id } } }")).body.data.courses.nodes).toHaveLength(DEMO_COURSE_FILES);
    expect((await gql(app, "{ courses { nodes { id } } }", {}, { key: ACME_API_KEY })).body.data.courses.nodes.map((c: { id: string }) => c.id)).not.toContain(COURSE);
    expect((await gql(app, "{ courses(first: 101) { nodes { id } } }")).body.errors[0].message).toBe("first must be between 1 and 100");
  });

  it("courses page like subscriptions: after = the previous page's endCursor, pageInfo says when to stop (issue 29)", async () => {
    const Q = `query($first: Int, $after: String) { courses(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }`;
    const all = (await gql(app, "{ courses(first: 100) { nodes { id } pageInfo { hasNextPage endCursor } } }")).body.data.courses;
    expect(all.nodes).toHaveLength(DEMO_COURSE_FILES);
    expect(all.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });
    // Two positions alike: the id breaks the tie, so no course is skipped or seen twice.
    const [a, b] = all.nodes.map((n: { id: string }) => n.id);
    const positions = await db().course.findMany({ where: { id: { in: [a, b] } }, select: { id: true, position: true } });
    await db().course.update({ where: { id: b }, data: { position: positions.find((p) => p.id === a)!.position } });
    try {
      const expected = (await gql(app, "{ courses(first: 100) { nodes { id } } }")).body.data.courses.nodes.map((n: { id: string }) => n.id);
      const seen: string[] = [];
      let after: string | null = null;
      for (;;) {
        const page: { nodes: Array<{ id: string }>; pageInfo: { hasNextPage: boolean; endCursor: string } } = (await gql(app, Q, { first: 2, after })).body.data.courses;
        expect(page.nodes.length).toBeLessThanOrEqual(2);
        seen.push(...page.nodes.map((n: { id: string }) => n.id));
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(seen).toEqual(expected);
    } finally {
      await db().course.update({ where: { id: b }, data: { position: positions.find((p) => p.id === b)!.position } });
    }
    const last = await gql(app, Q, { first: 100, after: all.pageInfo.endCursor });
    expect(last.body.data.courses).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });
    const cursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    const subscriptionCursor = cursor({ c: "2026-01-01T00:00:00.000Z", i: "5c400000-0000-4000-8000-000000000001" });
    for (const bad of ["garbage", subscriptionCursor, cursor({ p: 2 ** 31, i: a }), cursor({ p: 1.5, i: a }), cursor({ p: 1, i: "x" }), cursor(null)]) {
      const r = await gql(app, Q, { after: bad });
      expect(r.body.data?.courses ?? null, bad).toBeNull();
      expect(r.body.errors, bad).toEqual([expect.objectContaining({ message: "after is not a valid cursor", extensions: { code: "BAD_USER_INPUT" } })]);
    }
  });

  it("courses reflect a content write made outside the app (served from the content cache)", async () => {
    const titles = async () => (await gql(app, "{ courses(first: 100) { nodes { id title } } }")).body.data.courses.nodes.find((c: { id: string }) => c.id === COURSE).title;
    const before = await titles();
    await db().$executeRawUnsafe(`UPDATE "Course" SET "title" = 'Renamed by the CMS' WHERE "id" = '${COURSE}'`);
    try {
      expect(await titles()).toBe("Renamed by the CMS");
    } finally {
      await db().$executeRawUnsafe(`UPDATE "Course" SET "title" = $1 WHERE "id" = '${COURSE}'`, before);
    }
    expect(await titles()).toBe(before);
  });

  it("enrolls a new user (with a name) and is an upsert", async () => {
    const email = freshEmail("enroll");
    const first = await gql(app, ENROLL, { input: { courseId: COURSE, email, name: "Enna Roll" } });
    const p = first.body.data.enrollStudentToCourse;
    expect(p.errors).toEqual([]);
    expect(p.enrollment).toMatchObject({ id: expect.any(String), course: { id: COURSE, title: "Intro to SQL" }, user: { email, name: "Enna Roll" } });
    const again = await gql(app, ENROLL, { input: { courseId: COURSE, email } });
    expect(again.body.data.enrollStudentToCourse.enrollment.id).toBe(p.enrollment.id);
    expect(await db().enrollment.count({ where: { courseId: COURSE, user: { email } } })).toBe(1);
  });

  it("enrolls an existing user without a name", async () => {
    const r = await gql(app, ENROLL, { input: { courseId: COURSE, email: "student@schoolhouse.test" } });
    expect(r.body.data.enrollStudentToCourse.enrollment.user).toEqual({ id: DEMO_IDS.users.student, email: "student@schoolhouse.test", name: "Jamie Lee" });
  });

  it("errors: unknown or other school's course, missing name, invalid email, no permission", async () => {
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ courseId: "5c400000-0000-4000-8000-0007000000ff", email: freshEmail(), name: "X" }, "Course not found"],
      [{ courseId: "bad", email: freshEmail(), name: "X" }, "Course not found"],
      [{ courseId: COURSE, email: freshEmail(), name: "X" }, "Course not found", ACME_API_KEY],
      [{ courseId: COURSE, email: freshEmail() }, "Name is required for new users"],
      [{ courseId: COURSE, email: "nope", name: "X" }, "Email is not a valid email address"],
      [{ courseId: COURSE, email: freshEmail(), name: "X" }, "Unauthorized", NO_PERMISSIONS_KEY],
    ];
    for (const [input, message, key] of cases) {
      const r = await gql(app, ENROLL, { input }, { key });
      expect(r.body.data.enrollStudentToCourse).toEqual({ errors: [message], enrollment: null });
    }
  });
});

describe("permissions on queries", () => {
  it("a key without a query's permission gets that field null with an Unauthorized (FORBIDDEN) error", async () => {
    const queries: [string, string][] = [
      ["membershipPlans", "{ membershipPlans { id } }"],
      ["subscription", `{ subscription(id: "${DEMO_IDS.plans.monthly}") { id } }`],
      ["subscriptions", "{ subscriptions { nodes { id } } }"],
      ["courses", "{ courses { nodes { id } } }"],
    ];
    for (const [field, query] of queries) {
      const r = await gql(app, query, {}, { key: NO_PERMISSIONS_KEY });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ [field]: null });
      expect(r.body.errors).toEqual([{ message: "Unauthorized", path: [field], locations: expect.any(Array), extensions: { code: "FORBIDDEN" } }]);
    }
  });

  it("each permission allows exactly its operation", async () => {
    const { createApiKey } = await import("@/lib/admin-api/api-keys");
    const { key } = await createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "demo", name: "plans only", permissions: ["membershipPlans"], enforceLimits: false });
    expect((await gql(app, "{ membershipPlans { id } }", {}, { key })).body.data.membershipPlans).toHaveLength(5);
    expect((await gql(app, "{ courses { nodes { id } } }", {}, { key })).body.errors[0].message).toBe("Unauthorized");
    const m = await gql(app, `mutation($i: AdminCreateSubscriptionInput!) { createSubscription(input: $i) { errors } }`, { i: { email: freshEmail(), name: "P", planId: PLANS.monthly } }, { key });
    expect(m.body.data.createSubscription.errors).toEqual(["Unauthorized"]);
  });
});
