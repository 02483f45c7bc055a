import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { createApiKey } from "@/lib/admin-api/api-keys";
import { MAX_PAGE_SIZE } from "@/lib/core/page";
import { adminAppForSuite } from "../admin-api/helpers";
import { signIn } from "../oauth/helpers";
import { call, mcpClient, mcpToken, prose, rpc, text, toolCall } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// The staff's member and enrollment tools (lib/mcp/tools/staff-reads.ts): the Admin API's members,
// member(id) and enrollments over MCP, with scope students:read, a staff role or the key's permission.
const app = adminAppForSuite();
let adminToken: string;
let studentToken: string;

beforeAll(async () => {
  adminToken = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school });
  studentToken = await mcpToken(app, await signIn(app, "student@schoolhouse.test"), { schoolId: DEMO_IDS.school });
});

type Members = { members: { id: string; email: string; roles: string[] }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

describe("list_members, get_member, list_enrollments as an admin", () => {
  it("searches members, pages to the end without duplicates, and reads one member", async () => {
    const client = await mcpClient(app, adminToken);
    const found = await call(client, "list_members", { search: "OWNER@" });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as Members).members).toEqual([expect.objectContaining({ id: DEMO_IDS.users.owner, roles: ["owner"] })]);
    expect(prose(found)).toContain("Olivia Park <owner@");

    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = (await call(client, "list_members", { first: 2, ...(after ? { after } : {}) })).structuredContent as Members;
      seen.push(...page.members.map((m) => m.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor!;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(DEMO_IDS.users.student);
    expect(seen).not.toContain(DEMO_IDS.users.acmeEmployee);

    expect((await call(client, "get_member", { id: DEMO_IDS.users.teacher })).structuredContent).toMatchObject({ member: { id: DEMO_IDS.users.teacher, roles: ["teacher"] } });
    const other = await call(client, "get_member", { id: DEMO_IDS.users.acmeEmployee });
    expect(other.structuredContent).toEqual({ member: null });
    expect(prose(other)).toBe("No member of this school has this id.");

    const bad = await call(client, "list_members", { after: "garbage" });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe("after is not a valid cursor");
    const tooMany = await call(client, "list_members", { first: MAX_PAGE_SIZE + 1 });
    expect(text(tooMany)).toMatch(/Invalid arguments for tool list_members: .*<=100 at first/);
    await client.close();
  });

  it("lists enrollments by member and by course", async () => {
    const client = await mcpClient(app, adminToken);
    expect((await call(client, "enroll_student", { courseId: DEMO_IDS.courses.introToSql, email: "student@schoolhouse.test" })).isError).toBeFalsy();
    const mine = await call(client, "list_enrollments", { userId: DEMO_IDS.users.student });
    const enrollments = (mine.structuredContent as { enrollments: { user: { id: string }; course: { id: string } }[] }).enrollments;
    expect(enrollments.length).toBeGreaterThan(0);
    expect(enrollments.every((e) => e.user.id === DEMO_IDS.users.student)).toBe(true);
    const course = enrollments[0]!.course.id;
    const inCourse = (await call(client, "list_enrollments", { courseId: course, first: 100 })).structuredContent as { enrollments: { course: { id: string } }[] };
    expect(inCourse.enrollments.every((e) => e.course.id === course)).toBe(true);
    expect(((await call(client, "list_enrollments", { courseId: "nope" })).structuredContent as { enrollments: unknown[] }).enrollments).toEqual([]);
    await client.close();
  });
});

describe("list_payments and list_audit_events", () => {
  it("read the school's payments and audit log, newest first; the enrollment above is the agent's row", async () => {
    const client = await mcpClient(app, adminToken);
    const log = await call(client, "list_audit_events", { action: "enrollment.create", actorType: "oauth_client" });
    expect(log.isError).toBeFalsy();
    const rows = (log.structuredContent as { auditEvents: { action: string; actorType: string; actorLabel: string }[] }).auditEvents;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.action === "enrollment.create" && r.actorType === "oauth_client")).toBe(true);
    expect(rows[0]!.actorLabel).toMatch(/^admin@schoolhouse\.test via /);
    expect(prose(log)).toContain("enrollment.create");
    const payments = await call(client, "list_payments", { state: "failed", first: 5 });
    expect(payments.isError).toBeFalsy();
    expect((payments.structuredContent as { payments: { state: string }[] }).payments.every((p) => p.state === "failed")).toBe(true);
    const bad = await call(client, "list_audit_events", { since: 10, until: 5 });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe("since must not be after until");
    await client.close();
  });

  it("are staff-only, and API keys need the payments / auditEvents permission", async () => {
    const student = await mcpClient(app, studentToken);
    for (const name of ["list_payments", "list_audit_events"]) {
      expect(text(await call(student, name)), name).toBe(`${name} is for staff: it needs the owner, manager or admin role at Schoolhouse Demo Academy.`);
    }
    await student.close();
    const none = await mcpClient(app, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS);
    for (const name of ["list_payments", "list_audit_events"]) expect(text(await call(none, name)), name).toBe("Unauthorized");
    await none.close();
    const full = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    for (const name of ["list_payments", "list_audit_events"]) expect((await call(full, name, { first: 1 })).isError, name).toBeFalsy();
    await full.close();
  });
});

describe("access", () => {
  it("a student is refused by role; a token without students:read gets 403 insufficient_scope", async () => {
    const student = await mcpClient(app, studentToken);
    for (const name of ["list_members", "get_member", "list_enrollments"]) {
      const r = await call(student, name, name === "get_member" ? { id: DEMO_IDS.users.owner } : {});
      expect(r.isError, name).toBe(true);
      expect(text(r)).toBe(`${name} is for staff: it needs the owner, manager or admin role at Schoolhouse Demo Academy.`);
    }
    await student.close();
    const narrow = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school, scope: "openid subscriptions:read" });
    const res = await rpc(app, toolCall("list_members"), { authorization: `Bearer ${narrow}` });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain("students:read");
  });

  it("API keys need each tool's own permission", async () => {
    const full = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    expect((await call(full, "list_members", { first: 1 })).isError).toBeFalsy();
    await full.close();
    const none = await mcpClient(app, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS);
    for (const name of ["list_members", "list_enrollments"]) expect(text(await call(none, name))).toBe("Unauthorized");
    await none.close();
    const { key } = await createApiKey({ actor: TEST_ACTOR, now: new Date(), school: "demo", name: "members only (mcp)", permissions: ["members"], enforceLimits: false });
    const partial = await mcpClient(app, key);
    expect((await call(partial, "list_members", { first: 1 })).isError).toBeFalsy();
    expect(text(await call(partial, "get_member", { id: DEMO_IDS.users.owner }))).toBe("Unauthorized");
    expect(text(await call(partial, "list_enrollments"))).toBe("Unauthorized");
    await partial.close();
  });
});
