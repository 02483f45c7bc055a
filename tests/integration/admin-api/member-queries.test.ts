import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/admin-api/api-keys";
import { advance } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_USERS } from "@/lib/startup/seed/demo-data";
import { ACME_API_KEY, DEMO_IDS, NO_PERMISSIONS_KEY, PLANS, gql, subscribe, adminAppForSuite, freshEmail } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// members, member(id) and enrollments (lib/admin-api/member-queries.ts) through HTTP, on PGlite and,
// with TEST_DATABASE_URL, on Postgres.
const app = adminAppForSuite();
const COURSE = DEMO_IDS.courses.introToSql;

const MEMBERS = `query($first: Int, $after: String, $search: String, $planId: String, $state: String) {
  members(first: $first, after: $after, search: $search, planId: $planId, state: $state) {
    nodes { id email name emailVerified roles joinedAt } pageInfo { hasNextPage endCursor } } }`;
const MEMBER = `query($id: String!) { member(id: $id) { id email name roles joinedAt } }`;
const ENROLLMENTS = `query($first: Int, $after: String, $userId: String, $courseId: String) {
  enrollments(first: $first, after: $after, userId: $userId, courseId: $courseId) {
    nodes { id createdAt course { id title } user { id email } } pageInfo { hasNextPage endCursor } } }`;
const ENROLL = `mutation($input: EnrollStudentToCourseInput!) { enrollStudentToCourse(input: $input) { errors enrollment { id user { id } } } }`;

type Page = { nodes: { id: string; email: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

/** Every page of a members or enrollments query, following endCursor to the end. */
async function allPages(query: string, field: "members" | "enrollments", vars: Record<string, unknown>, key?: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 500; i++) {
    const r = await gql(app, query, { ...vars, after }, { key });
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    const page: Page = r.body.data[field];
    ids.push(...page.nodes.map((n) => n.id));
    if (!page.pageInfo.hasNextPage) {
      if (page.nodes.length) expect(page.pageInfo.endCursor).not.toBeNull();
      return ids;
    }
    after = page.pageInfo.endCursor;
  }
  throw new Error("no last page");
}

let tagCounter = 0;
/**
 * Members made directly in the database: `count` people whose name starts with a fresh tag; even
 * ones' emails start with it too, odd ones' do not (found by name only). Names repeat (ties broken
 * by id) and some join at the same instant (ties broken by membership id).
 */
async function seedMembers(count: number, options: { sameInstant?: boolean; school?: string } = {}) {
  const tag = `mq${Date.now().toString(36)}${tagCounter++}`;
  const base = new Date("2026-06-01T00:00:00Z").getTime();
  const made: { id: string; email: string; name: string; joinedAt: Date }[] = [];
  for (let i = 0; i < count; i++) {
    const email = i % 2 === 0 ? `${tag}.${i}@example.com` : `p${i}.${tag}@example.com`;
    const user = await db().user.create({ data: { email, name: `${tag.toUpperCase()} Person ${i % 3}` } });
    const joinedAt = new Date(base + (options.sameInstant ? 0 : (i % 3) * 1000));
    await db().schoolMembership.create({ data: { schoolId: options.school ?? DEMO_IDS.school, userId: user.id, roles: ["student"], createdAt: joinedAt } });
    made.push({ id: user.id, email: user.email, name: user.name, joinedAt });
  }
  return { tag, made };
}

/** The order of a search's pages: email matches by email, then name-only matches by (lower-cased name, id). */
function searchOrder(made: { id: string; email: string; name: string }[], search: string): string[] {
  const byBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byEmail = made.filter((m) => m.email.startsWith(search)).sort((a, b) => byBytes(a.email, b.email));
  const byName = made
    .filter((m) => !m.email.startsWith(search) && m.name.toLowerCase().startsWith(search))
    .sort((a, b) => byBytes(a.name.toLowerCase(), b.name.toLowerCase()) || byBytes(a.id, b.id));
  return [...byEmail, ...byName].map((m) => m.id);
}

describe("members", () => {
  it("lists the school's members with their roles; another school's members are not there", async () => {
    const ids = await allPages(MEMBERS, "members", { first: 100 });
    const demo = DEMO_USERS.filter((u) => u.school === "demo").map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining(demo));
    expect(ids).not.toContain(DEMO_IDS.users.acmeEmployee);
    expect(new Set(ids).size).toBe(ids.length);
    const owner = (await gql(app, MEMBER, { id: DEMO_IDS.users.owner })).body.data.member;
    expect(owner).toMatchObject({ id: DEMO_IDS.users.owner, name: "Olivia Park", roles: ["owner"] });
    expect(typeof owner.joinedAt).toBe("number");
    const acme = await allPages(MEMBERS, "members", { first: 100 }, ACME_API_KEY);
    expect(acme).toContain(DEMO_IDS.users.acmeEmployee);
    expect(acme).not.toContain(DEMO_IDS.users.owner);
  });

  it("member(id): another school's member, an unknown id and a non-UUID are null", async () => {
    for (const id of [DEMO_IDS.users.acmeEmployee, "00000000-0000-4000-8000-000000000000", "nope", "' OR 1=1 --"]) {
      const r = await gql(app, MEMBER, { id });
      expect(r.body.data, id).toEqual({ member: null });
      expect(r.body.errors, id).toBeUndefined();
    }
    expect((await gql(app, MEMBER, { id: DEMO_IDS.users.acmeEmployee }, { key: ACME_API_KEY })).body.data.member.id).toBe(DEMO_IDS.users.acmeEmployee);
  });

  it("searches by email or name prefix, case-insensitively; LIKE wildcards are literal", async () => {
    const { tag, made } = await seedMembers(3);
    const byEmail = await allPages(MEMBERS, "members", { search: `${tag}.2@` });
    expect(byEmail).toEqual([made[2]!.id]);
    expect(await allPages(MEMBERS, "members", { search: `P1.${tag}` })).toEqual([made[1]!.id]);
    const byName = await allPages(MEMBERS, "members", { search: `  ${tag.toUpperCase()} person ` });
    expect(byName.sort()).toEqual(made.map((m) => m.id).sort());
    // Email matches first (by email), then the member found by name only.
    expect(await allPages(MEMBERS, "members", { search: tag })).toEqual([made[0]!.id, made[2]!.id, made[1]!.id]);
    expect(await allPages(MEMBERS, "members", { search: tag.toUpperCase() })).toHaveLength(3);
    // Only a prefix: the middle of a name or email matches nothing.
    expect(await allPages(MEMBERS, "members", { search: "Person 1" })).toEqual([]);
    expect(await allPages(MEMBERS, "members", { search: "example.com" })).toEqual([]);
    for (const wildcard of ["%", "_", `${tag}%`, `${tag}_`, "\\"]) {
      expect(await allPages(MEMBERS, "members", { search: wildcard }), wildcard).toEqual([]);
    }
    // Another school's members are not found by search either.
    const acmeSeed = await seedMembers(1, { school: DEMO_IDS.acmeSchool });
    expect(await allPages(MEMBERS, "members", { search: acmeSeed.tag })).toEqual([]);
    expect(await allPages(MEMBERS, "members", { search: acmeSeed.tag }, ACME_API_KEY)).toEqual([acmeSeed.made[0]!.id]);
  });

  it("filters by a subscription's plan and state (one subscription must match both)", async () => {
    const s = await subscribe(app, PLANS.lifetime);
    const onMonthly = await subscribe(app, PLANS.monthly);
    const lifetime = await allPages(MEMBERS, "members", { first: 100, planId: PLANS.lifetime });
    expect(lifetime).toContain(s.user.id);
    expect(lifetime).not.toContain(onMonthly.user.id);
    expect(await allPages(MEMBERS, "members", { first: 100, planId: PLANS.lifetime, state: "active", search: s.user.email })).toEqual([s.user.id]);
    expect(await allPages(MEMBERS, "members", { first: 100, planId: PLANS.lifetime, state: "canceled", search: s.user.email })).toEqual([]);
    expect(await allPages(MEMBERS, "members", { first: 100, state: "active", search: onMonthly.user.email })).toEqual([onMonthly.user.id]);
    // Another school's plan, an unknown one, a non-UUID: nobody.
    for (const planId of [PLANS.acmeAnnual, "00000000-0000-4000-8000-000000000000", "monthly"]) {
      expect(await allPages(MEMBERS, "members", { planId }), planId).toEqual([]);
    }
  });

  it("pages forward to the end with no duplicates or gaps, in search order and in join order, ties included (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.integer({ min: 0, max: 3 }), async (count, first, sameInstant, cut) => {
        const { tag, made } = await seedMembers(count, { sameInstant });
        // Search: a prefix of the tag (all of them), the tag with the name's space, or an email's start.
        const search = [tag, `${tag} person`, `${tag}.`, `${tag.toUpperCase()} PERSON 1`][cut]!.toLowerCase();
        const ids = await allPages(MEMBERS, "members", { first, search });
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(searchOrder(made, search));
        // Without search: every member once, the new ones in join order.
        const all = await allPages(MEMBERS, "members", { first: first * 25 });
        expect(new Set(all).size).toBe(all.length);
        const mine = all.filter((id) => made.some((m) => m.id === id));
        expect(mine.sort()).toEqual(made.map((m) => m.id).sort());
        const joined = new Map(made.map((m) => [m.id, m.joinedAt.getTime()]));
        const inOrder = all.filter((id) => joined.has(id));
        for (let i = 1; i < inOrder.length; i++) expect(joined.get(inOrder[i]!)!).toBeGreaterThanOrEqual(joined.get(inOrder[i - 1]!)!);
      }),
      { seed: 2828, numRuns: 12 },
    );
  }, 180_000);

  it("refuses bad arguments with BAD_USER_INPUT, like subscriptions", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ first: 0 }, "first must be between 1 and 100"],
      [{ first: 101 }, "first must be between 1 and 100"],
      [{ after: "garbage" }, "after is not a valid cursor"],
      [{ after: Buffer.from(JSON.stringify({ k: "e", v: "a" })).toString("base64url") }, "after is not a valid cursor"],
      [{ search: "a", after: Buffer.from(JSON.stringify({ c: "2026-01-01T00:00:00.000Z", i: DEMO_IDS.users.owner })).toString("base64url") }, "after is not a valid cursor"],
      [{ search: "a", after: Buffer.from(JSON.stringify({ k: "n", v: "a", i: "x" })).toString("base64url") }, "after is not a valid cursor"],
      [{ after: Buffer.from(JSON.stringify({ c: "+275760-09-13T00:00:00.000Z", i: DEMO_IDS.users.owner })).toString("base64url") }, "after is not a valid cursor"],
      [{ state: "paused" }, "state must be one of: active, incomplete, incomplete_expired, trialing, past_due, canceled, expired"],
      [{ search: "x".repeat(255) }, "search must be at most 254 characters"],
    ];
    for (const [vars, message] of cases) {
      const r = await gql(app, MEMBERS, vars);
      expect(r.status).toBe(200);
      expect(r.body.data.members, JSON.stringify(vars)).toBeNull();
      expect(r.body.errors).toEqual([expect.objectContaining({ message, extensions: { code: "BAD_USER_INPUT" }, path: ["members"] })]);
    }
  });
});

describe("permissions", () => {
  it("a key without the permission gets null and Unauthorized (FORBIDDEN), per operation", async () => {
    for (const [query, field, vars] of [
      [MEMBERS, "members", {}],
      [MEMBER, "member", { id: DEMO_IDS.users.owner }],
      [ENROLLMENTS, "enrollments", {}],
    ] as const) {
      const r = await gql(app, query, vars, { key: NO_PERMISSIONS_KEY });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ [field]: null });
      expect(r.body.errors).toEqual([expect.objectContaining({ message: "Unauthorized", extensions: { code: "FORBIDDEN" }, path: [field] })]);
    }
    // Each query has its own permission: subscriptions does not open members, members does not open member(id) or enrollments.
    const { key } = await createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "demo", name: "members only", permissions: ["members", "subscriptions"], enforceLimits: false });
    expect((await gql(app, MEMBERS, { first: 1 }, { key })).body.data.members.nodes).toHaveLength(1);
    expect((await gql(app, MEMBER, { id: DEMO_IDS.users.owner }, { key })).body.errors[0].message).toBe("Unauthorized");
    expect((await gql(app, ENROLLMENTS, {}, { key })).body.errors[0].message).toBe("Unauthorized");
  });
});

describe("enrollments", () => {
  it("filters by member and course, pages to the end, and shows only the key's school", async () => {
    const emails = [freshEmail("enr"), freshEmail("enr"), freshEmail("enr")];
    const enrolled: { id: string; userId: string }[] = [];
    for (const email of emails) {
      const r = await gql(app, ENROLL, { input: { courseId: COURSE, email, name: "Enrolled Person" } });
      expect(r.body.data.enrollStudentToCourse.errors).toEqual([]);
      enrolled.push({ id: r.body.data.enrollStudentToCourse.enrollment.id, userId: r.body.data.enrollStudentToCourse.enrollment.user.id });
      advance(1000);
    }
    const inCourse = await allPages(ENROLLMENTS, "enrollments", { first: 2, courseId: COURSE });
    expect(new Set(inCourse).size).toBe(inCourse.length);
    expect(inCourse).toEqual(expect.arrayContaining(enrolled.map((e) => e.id)));
    // The three new ones come last, in the order they were made (oldest first).
    expect(inCourse.slice(-3)).toEqual(enrolled.map((e) => e.id));
    const mine = await gql(app, ENROLLMENTS, { userId: enrolled[1]!.userId });
    expect(mine.body.data.enrollments.nodes).toEqual([
      expect.objectContaining({ id: enrolled[1]!.id, course: expect.objectContaining({ id: COURSE }), user: { id: enrolled[1]!.userId, email: emails[1] } }),
    ]);
    expect((await gql(app, ENROLLMENTS, { userId: enrolled[1]!.userId, courseId: COURSE })).body.data.enrollments.nodes).toHaveLength(1);
    const all = await allPages(ENROLLMENTS, "enrollments", { first: 100 });
    expect(all).toEqual(expect.arrayContaining(enrolled.map((e) => e.id)));
    // Another school's key sees none of them, whatever the filter.
    expect(await allPages(ENROLLMENTS, "enrollments", { courseId: COURSE }, ACME_API_KEY)).toEqual([]);
    expect(await allPages(ENROLLMENTS, "enrollments", { userId: enrolled[0]!.userId }, ACME_API_KEY)).toEqual([]);
    expect(await allPages(ENROLLMENTS, "enrollments", { first: 100 }, ACME_API_KEY)).not.toEqual(expect.arrayContaining([enrolled[0]!.id]));
    for (const courseId of ["nope", "00000000-0000-4000-8000-000000000000"]) {
      expect(await allPages(ENROLLMENTS, "enrollments", { courseId })).toEqual([]);
    }
    const bad = await gql(app, ENROLLMENTS, { first: 500 });
    expect(bad.body.errors[0]).toMatchObject({ message: "first must be between 1 and 100", extensions: { code: "BAD_USER_INPUT" } });
  });
});

describe("cost accounting", () => {
  it("counts members and enrollments by their page size, like subscriptions", async () => {
    const one = await gql(app, `{ members(first: 1) { nodes { id email } } }`);
    const hundred = await gql(app, `{ members(first: 100) { nodes { id email } } }`);
    expect(hundred.body.extensions.cost.requestedQueryCost).toBeGreaterThan(50 * one.body.extensions.cost.requestedQueryCost);
    const pages = Array.from({ length: 10 }, (_, i) => `p${i}: enrollments(first: 100) { nodes { id course { id title summary status price currency } user { id email name } } }`);
    const r = await gql(app, `{ ${pages.join("\n")} }`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
  });
});
