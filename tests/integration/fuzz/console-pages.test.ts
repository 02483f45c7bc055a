// The staff console's pages under hostile addresses (seeded, fast-check): every /manage page with
// any search parameters (q, plan, state, after, notice, refused, unknown names, repeated names) and
// any id in the path (this school's, another school's, garbage), signed in as the owner. What each
// page runs below Next runs here with the values the page passes on (the page's own rendering is
// tests/e2e/console-pages-fuzz.spec.ts): the proxy's gate, then the page's reads. Never a throw (a
// 5xx), an id of no row of this school reads nothing (404), a refused parameter is a message that
// leaks nothing and the list it can show honestly, and no GET changes anything.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import type { ConsoleStaff } from "@/lib/console/access";
import { consoleAccess, consolePageGate } from "@/lib/console/access";
import { AUDIT_PAGE_SIZE, consoleAuditList } from "@/lib/console/audit-list";
import { consoleCourses, courseEnrollments } from "@/lib/console/courses";
import { consoleNotice, refusalNotice } from "@/lib/console/form-guard";
import { consoleMemberList, MEMBER_PAGE_SIZE } from "@/lib/console/member-list";
import { memberView } from "@/lib/console/members";
import { schoolOverview } from "@/lib/console/overview";
import { INVALID_PAGE_LINK, one, type PageQuery } from "@/lib/console/paging";
import { takeSecretReveal } from "@/lib/console/secret-reveal";
import { appPath } from "@/lib/console/settings-actions";
import { schoolAppView, webhookEndpointView } from "@/lib/console/settings-views";
import { listApiKeys } from "@/lib/credentials/api-keys/list-api-keys";
import { AUDIT_ACTOR_TYPES } from "@/lib/db/audit";
import { db } from "@/lib/db/client";
import { createSubscription } from "@/lib/membership/create-subscription";
import { listMembers } from "@/lib/membership/list-members";
import { settleDueSubscriptions } from "@/lib/membership/settle";
import { SUBSCRIPTION_STATES } from "@/lib/membership/states";
import { listSchoolApps } from "@/lib/oauth/school-apps/list-school-apps";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";
import { appForSuite } from "../../helpers/app-for-suite";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { CONSOLE_FUZZ_RUNS as RUNS, CONSOLE_FUZZ_SEED as SEED, CONSOLE_HOST as HOST, CONSOLE_ORIGIN as ORIGIN, INTERNALS_LEAK as LEAK, consoleHeaders, hostileText } from "../../helpers/console-fuzz";
import { signIn } from "../oauth/helpers";

const app = appForSuite({ host: HOST });
const cookies = { owner: "", teacher: "" };
let owner: ConsoleStaff;
const acme = { course: "", endpoint: "", client: "", members: [] as string[] };
const own = { endpoint: "", memberIds: new Set<string>() };

// Everything a page could write to: a GET changes none of it.
async function everything() {
  const d = db();
  const [subs, memberships, enrollments, keys, endpoints, clients, grants, schools, events, audit, reveals] = await Promise.all([
    d.subscription.findMany({ select: { id: true, state: true, cancelAt: true, pausedAt: true, currentPeriodEnd: true, updatedAt: true }, orderBy: { id: "asc" } }),
    d.schoolMembership.findMany({ select: { id: true, disabledAt: true, roles: true }, orderBy: { id: "asc" } }),
    d.enrollment.count(),
    d.apiKey.findMany({ select: { id: true, revokedAt: true, name: true }, orderBy: { id: "asc" } }),
    d.webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
    d.oAuthClient.findMany({ select: { clientId: true, revokedAt: true, clientSecretHash: true }, orderBy: { id: "asc" } }),
    d.oAuthGrant.findMany({ select: { id: true, revokedAt: true }, orderBy: { id: "asc" } }),
    d.school.findMany({ select: { id: true, cimdAllowed: true }, orderBy: { id: "asc" } }),
    d.webhookEvent.count(),
    d.auditEvent.count(),
    d.consoleSecretReveal.count(),
  ]);
  return { subs, memberships, enrollments, keys, endpoints, clients, grants, schools, events, audit, reveals };
}

beforeAll(async () => {
  cookies.owner = await signIn(app, "owner@schoolhouse.test");
  cookies.teacher = await signIn(app, "teacher@schoolhouse.test");
  const access = await consoleAccess({ headers: consoleHeaders(cookies.owner) });
  if (access.kind !== "staff") throw new Error("the owner is staff");
  owner = access;
  // Rows on both sides: subscriptions for the plan and state filters, an endpoint each, another school's course and client.
  await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { email: "student@schoolhouse.test", planId: DEMO_IDS.plans.monthly }, now: now() });
  await createSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { email: "employee@schoolhouse.test", planId: DEMO_IDS.plans.acmeAnnual }, now: now() });
  own.endpoint = (await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { url: "https://hooks.demo.example/in", events: ["*"] }, now: now() })).record!.endpoint.id;
  acme.endpoint = (await createWebhookEndpoint({ actor: TEST_ACTOR, schoolId: DEMO_IDS.acmeSchool, input: { url: "https://hooks.acme.example/in", events: ["*"] }, now: now() })).record!.endpoint.id;
  acme.client = (await db().oAuthClient.create({ data: { clientId: "oc_acme_pages_fuzz", name: "Acme app", scope: "openid", schoolId: DEMO_IDS.acmeSchool, tokenEndpointAuthMethod: "client_secret_basic", clientSecretHash: "s256$00$00" } })).clientId;
  acme.course = (await db().course.findFirstOrThrow({ where: { schoolId: DEMO_IDS.acmeSchool }, select: { id: true } })).id;
  acme.members = (await db().schoolMembership.findMany({ where: { schoolId: DEMO_IDS.acmeSchool }, select: { userId: true } })).map((m) => m.userId);
  for (const m of await db().schoolMembership.findMany({ where: { schoolId: DEMO_IDS.school }, select: { userId: true } })) own.memberIds.add(m.userId);
  // A state filter settles what is due first (list-members.ts): settled before the snapshot, so only a page could change a row.
  for (const schoolId of [DEMO_IDS.school, DEMO_IDS.acmeSchool]) await settleDueSubscriptions({ schoolId, now: now() });
});

// Another school's page link: a cursor listMembers wrote for Acme's members.
const acmeCursor = async () => (await listMembers({ schoolId: DEMO_IDS.acmeSchool, filter: { first: 1 }, now: now() })).pageInfo.endCursor ?? "";

const text = hostileText(["%00", "%zz", "../../etc/passwd", "eyJrIjoiZSIsInYiOiJhIn0", "eyJrIjoibiIsInYiOiJhIiwiaSI6IngifQ", "jam", "STUDENT@", "İ".repeat(254), "_", "%", "\\"]);
const value = fc.oneof(
  text,
  fc.constantFrom(DEMO_IDS.plans.monthly, DEMO_IDS.plans.acmeAnnual, ...SUBSCRIPTION_STATES, "ACTIVE", "active ", "inProgress", "crossSite", "constructor", "__proto__"),
  fc.constantFrom(...AUDIT_ACTOR_TYPES, "subscription.create", "2026-02-31", "2026-11-26", "1969-12-31", "9999-12-31", "0000-01-01", "+02026-01-01"),
);
const query = fc.dictionary(fc.oneof(fc.constantFrom("q", "plan", "state", "after", "notice", "refused", "actor", "action", "target", "from", "to"), fc.string({ maxLength: 8 })), fc.oneof(value, fc.array(value, { minLength: 2, maxLength: 3 })), { maxKeys: 5 });
/** A path segment as Next gives it to the page (decoded). */
const segment = () =>
  fc.oneof(
    text,
    fc.constantFrom(
      DEMO_IDS.users.student,
      DEMO_IDS.users.acmeEmployee,
      DEMO_IDS.courses.introToSql,
      DEMO_IDS.plans.monthly,
      "00000000-0000-4000-8000-000000000000",
      "demo-confidential-app",
      appPath("demo-confidential-app").split("/").pop()!,
      appPath("oc_acme_pages_fuzz").split("/").pop()!,
      appPath("https://agent.example/client.json").split("/").pop()!,
    ),
  );

type Read = (params: PageQuery, id: string) => Promise<void>;

/** What a page's notice reads (app/manage/_components/console.tsx, pageNotice): a form's stored notice by token, or a refusal code. */
async function notice(params: PageQuery) {
  const n = (await consoleNotice({ sessionId: owner.session.sessionId, token: one(params.notice), now: now() })) ?? refusalNotice(one(params.refused));
  // Another session's notice is never this page's; a hostile token finds none, a refusal code only its fixed text.
  if (n) expect(n.kind).toBe("error");
}

/** The settings pages' notice and the secret their last form made (taken once). */
async function feedback(params: PageQuery) {
  await notice(params);
  expect(await takeSecretReveal({ sessionId: owner.session.sessionId, formToken: one(params.notice), now: now() })).toBeNull();
}

const PAGES: { path: (id: string) => string; read: Read }[] = [
  {
    path: () => "/manage",
    read: async (params) => {
      await notice(params);
      await schoolOverview({ schoolId: owner.school.id, now: now() });
    },
  },
  {
    path: () => "/manage/members",
    read: async (params) => {
      await notice(params);
      const list = await consoleMemberList({ schoolId: owner.school.id, query: params, now: now() });
      // The filters the page shows are ones it applied: a plan of this school, a known state, the search as typed (cut).
      expect(["", ...list.plans.map((p) => p.id)]).toContain(list.filters.plan);
      expect(["", ...SUBSCRIPTION_STATES]).toContain(list.filters.state);
      expect(list.filters.q.length).toBeLessThanOrEqual(254);
      expect(list.page.nodes.length).toBeLessThanOrEqual(MEMBER_PAGE_SIZE);
      for (const m of list.page.nodes) expect(own.memberIds.has(m.id), "only this school's members").toBe(true);
      if (list.refused) for (const pattern of LEAK) expect(list.refused).not.toMatch(pattern);
      // An honest result: without a refusal, every member listed matches the search.
      const search = list.filters.q.replace(/\0/g, "").trim().toLowerCase();
      if (!list.refused && search) for (const m of list.page.nodes) expect(m.email.toLowerCase().startsWith(search) || m.name.toLowerCase().startsWith(search), `${m.email} for ${JSON.stringify(search)}`).toBe(true);
      if (list.refused === INVALID_PAGE_LINK) expect(one(params.after)).toBeTruthy();
    },
  },
  {
    path: (id) => `/manage/members/${encodeURIComponent(id)}`,
    read: async (params, id) => {
      await notice(params);
      const view = await memberView({ staff: owner, memberId: id, now: now() });
      if (view) expect(own.memberIds.has(view.member.id)).toBe(true);
      else expect(own.memberIds.has(id)).toBe(false);
    },
  },
  {
    path: () => "/manage/courses",
    read: async () => {
      await consoleCourses(owner);
    },
  },
  {
    path: (id) => `/manage/courses/${encodeURIComponent(id)}`,
    read: async (params, id) => {
      const result = await courseEnrollments({ staff: owner, courseId: id, after: one(params.after)?.slice(0, 512) ?? null });
      if (id === acme.course) expect(result.kind).toBe("not_found");
      if (result.kind === "ok") {
        expect(result.course.id).toBe(id.toLowerCase());
        if (result.badCursor) expect(one(params.after)).toBeTruthy();
      }
    },
  },
  {
    path: () => "/manage/audit",
    read: async (params) => {
      const log = await consoleAuditList({ schoolId: owner.school.id, query: params });
      // Only this school's rows, filters the page shows are ones it applied, and every row matches them.
      expect(["", ...AUDIT_ACTOR_TYPES]).toContain(log.filters.actor);
      expect(log.page.nodes.length).toBeLessThanOrEqual(AUDIT_PAGE_SIZE);
      for (const e of log.page.nodes) {
        expect(e.schoolId).toBe(owner.school.id);
        if (log.filters.actor) expect(e.actorType).toBe(log.filters.actor);
        if (log.filters.action) expect(e.action).toBe(log.filters.action);
        if (log.filters.target) expect(e.targetId).toBe(log.filters.target);
      }
      if (log.refused) for (const pattern of LEAK) expect(log.refused).not.toMatch(pattern);
    },
  },
  {
    path: () => "/manage/keys",
    read: async (params) => {
      await feedback(params);
      await listApiKeys({ schoolId: owner.school.id, now: now() });
    },
  },
  {
    path: () => "/manage/webhooks",
    read: async (params) => {
      await feedback(params);
      await listWebhookEndpoints({ schoolId: owner.school.id });
    },
  },
  {
    path: (id) => `/manage/webhooks/${encodeURIComponent(id)}`,
    read: async (params, id) => {
      const view = await webhookEndpointView({ schoolId: owner.school.id, id });
      if (view) expect(view.endpoint.schoolId).toBe(owner.school.id);
      if (id === acme.endpoint) expect(view).toBeNull();
      if (view) await feedback(params);
    },
  },
  {
    path: () => "/manage/apps",
    read: async (params) => {
      await feedback(params);
      await listSchoolApps({ schoolId: owner.school.id });
    },
  },
  {
    path: (id) => `/manage/apps/${encodeURIComponent(id)}`,
    read: async (params, id) => {
      const view = await schoolAppView({ schoolId: owner.school.id, segment: id });
      if (id === appPath(acme.client).split("/").pop()) expect(view).toBeNull();
      if (view) await feedback(params);
    },
  },
];

function search(params: PageQuery): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v ?? ""]) s.append(k, item);
  const q = s.toString();
  return q ? `?${q}` : "";
}

describe("console pages under hostile addresses, signed in as the owner (seeded fuzz)", () => {
  it(`${RUNS} page reads: never a throw, nothing of another school, honest lists, nothing changed`, async () => {
    const cursor = await acmeCursor();
    const before = await everything();
    const request = fc.record({
      page: fc.nat({ max: PAGES.length - 1 }),
      id: fc.oneof(segment(), fc.constantFrom(acme.course, acme.endpoint, own.endpoint, ...acme.members)),
      params: fc.oneof(query, query.map((q) => ({ ...q, after: cursor }))),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const page = PAGES[r.page]!;
        const pathname = page.path(r.id);
        const pathWithSearch = pathname + search(r.params);
        const url = `${ORIGIN}${pathWithSearch}`;
        // The proxy lets the owner through on every console page; a visitor goes to the login page on this origin, back to this address.
        expect(await consolePageGate({ url, method: "GET", headers: consoleHeaders(cookies.owner) }, pathname, pathWithSearch)).toBeNull();
        const visitor = await consolePageGate({ url, method: "GET", headers: consoleHeaders("") }, pathname, pathWithSearch);
        expect(visitor?.status).toBe(307);
        const login = new URL(visitor!.headers.get("location")!);
        expect(login.origin).toBe(ORIGIN);
        expect(login.pathname).toBe("/login");
        expect(login.searchParams.get("callbackUrl")).toBe(pathWithSearch);
        // A teacher opens the courses pages only (the page itself then answers 403 for a course not theirs).
        const teacher = await consolePageGate({ url, method: "GET", headers: consoleHeaders(cookies.teacher) }, pathname, pathWithSearch);
        if (pathname === "/manage" || pathname.startsWith("/manage/courses")) expect(teacher).toBeNull();
        else expect(teacher?.status).toBe(403);
        if (teacher) expect(await teacher.text()).not.toContain("<script");
        await page.read(r.params, r.id);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(await everything()).toEqual(before);
  }, 600_000);

  it("every page at once with the worst of each parameter", async () => {
    const worst: PageQuery = { q: ["İ".repeat(254), "x"], plan: DEMO_IDS.plans.acmeAnnual, state: "\u0000", after: "\u0000".repeat(3000), notice: "' OR 1=1 --", refused: "__proto__", actor: "__proto__", action: "\u0000".repeat(300), target: "x".repeat(5000), from: "2026-02-31", to: ["0000-00-00", "2026-01-01"] };
    const before = await everything();
    for (const page of PAGES) for (const id of ["", "\u0000", "x".repeat(5000), acme.course, acme.endpoint]) await page.read(worst, id);
    const list = await consoleMemberList({ schoolId: owner.school.id, query: worst, now: now() });
    // A search that is too long once lower-cased is refused with listMembers' message and the whole list.
    expect(list.refused).toMatch(/search/);
    expect(list.filters.plan).toBe("");
    expect(list.filters.state).toBe("");
    expect(await everything()).toEqual(before);
  }, 300_000);
});
