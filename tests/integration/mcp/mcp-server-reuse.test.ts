import { beforeAll, describe, expect, it } from "vitest";
import { mcpServerPoolStats } from "@/lib/mcp/server-pool";
import { ACME_API_KEY, DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { adminAppForSuite } from "../admin-api/helpers";
import { signIn } from "../oauth/helpers";
import { mcpToken, rpc, toolCall } from "./helpers";

// McpServers are built once and reused across requests (lib/mcp/server-pool.ts): each request's
// caller and school must reach only that request's tools, also when requests of different
// members, keys and schools run at the same time on servers that served someone else before.
const app = adminAppForSuite({ now: new Date("2026-11-21T12:00:00Z") });
let studentToken: string;
let adminToken: string;

beforeAll(async () => {
  studentToken = await mcpToken(app, await signIn(app, "student@schoolhouse.test"), { schoolId: DEMO_IDS.school });
  adminToken = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school });
});

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };

async function callTool(bearer: string, name: string, args: Record<string, unknown> = {}, host?: string): Promise<Result> {
  const res = await rpc(app, toolCall(name, args), { authorization: `Bearer ${bearer}`, ...(host ? { host } : {}) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: Result }).result;
}

describe("reused MCP servers", () => {
  it("concurrent members each see only their own profile; staff tools stay refused to the student", async () => {
    // At most 10 concurrent calls per grant (the active-operations limit): 4 rounds of 2 calls each.
    const rounds = Array.from({ length: 4 }, () => [
      callTool(studentToken, "get_my_profile"),
      callTool(adminToken, "get_my_profile"),
      callTool(studentToken, "list_subscriptions"),
      callTool(adminToken, "list_subscriptions"),
    ]);
    for (const [student, admin, studentList, adminList] of await Promise.all(rounds.map((r) => Promise.all(r)))) {
      expect(student!.structuredContent).toMatchObject({ sub: DEMO_IDS.users.student });
      expect(admin!.structuredContent).toMatchObject({ sub: DEMO_IDS.users.admin });
      expect(studentList!.isError).toBe(true);
      expect(studentList!.content[0]!.text).toMatch(/is for staff/);
      expect(adminList!.isError).toBeUndefined();
    }
  });

  it("concurrent API keys keep their own permissions, and keys act for no member", async () => {
    // 4 rounds keep the full key at 8 calls in flight, under its limit of 10 operations at a time.
    const calls = Array.from({ length: 4 }, () =>
      Promise.all([
        callTool(DEFAULT_DEMO_API_KEY, "list_subscriptions"),
        callTool(DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, "list_subscriptions"),
        callTool(DEFAULT_DEMO_API_KEY, "get_my_profile"),
        callTool(studentToken, "get_my_profile"),
      ]),
    );
    for (const [full, none, keyProfile, student] of await Promise.all(calls)) {
      expect(full!.isError).toBeUndefined();
      expect(none!.isError).toBe(true);
      expect(keyProfile!.isError).toBe(true);
      expect(student!.structuredContent).toMatchObject({ sub: DEMO_IDS.users.student });
    }
  });

  it("concurrent requests to two schools answer with their own school's catalog and origin", async () => {
    const acmeHost = new URL(app.url).host.replace(/^[^:]+/, "acme-training.localhost");
    const demoPlans = await callTool(DEFAULT_DEMO_API_KEY, "list_membership_plans");
    const acmePlans = await callTool(ACME_API_KEY, "list_membership_plans", {}, acmeHost);
    const idsOf = (r: Result) => (r.structuredContent!.plans as { id: string }[]).map((p) => p.id).sort();
    expect(idsOf(demoPlans)).not.toEqual(idsOf(acmePlans));
    // 8 calls in flight per key, under the limit of 10 operations at a time.
    const calls = Array.from({ length: 8 }, () =>
      Promise.all([callTool(DEFAULT_DEMO_API_KEY, "list_membership_plans"), callTool(ACME_API_KEY, "list_membership_plans", {}, acmeHost)]),
    );
    for (const [demo, acme] of await Promise.all(calls)) {
      expect(idsOf(demo!)).toEqual(idsOf(demoPlans));
      expect(idsOf(acme!)).toEqual(idsOf(acmePlans));
      for (const p of acme!.structuredContent!.plans as { url: string }[]) expect(p.url.startsWith(`http://${acmeHost}/`)).toBe(true);
      for (const p of demo!.structuredContent!.plans as { url: string }[]) expect(p.url.startsWith(`${app.url}/`)).toBe(true);
    }
  });

  it("builds servers for concurrency, not per request", async () => {
    const before = mcpServerPoolStats().built;
    for (let i = 0; i < 20; i++) await callTool(DEFAULT_DEMO_API_KEY, "search_catalog", { query: "sql" });
    expect(mcpServerPoolStats().built - before).toBeLessThanOrEqual(1);
  });
});
