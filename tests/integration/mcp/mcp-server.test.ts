import Ajv from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ACME_API_KEY, DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { adminRateLimiter } from "@/lib/rate-limit";
import { adminAppForSuite } from "../admin-api/helpers";
import { MCP_TOOLS } from "../../helpers/mcp-tools";
import { form, signIn } from "../oauth/helpers";
import { call, grantIdOf, mcpClient, mcpToken, prose, rpc, text, toolCall } from "./helpers";

// The MCP server through HTTP with the official SDK client, as a student, as an admin and as an
// API key, on the bare host (the demo school), with the clock frozen like the Admin API suites.
const NOW = new Date("2026-11-21T12:00:00Z");
const T = NOW.getTime() / 1000;
// Demo data, the frozen clock and the HTTP server, as in the Admin API suites.
const app = adminAppForSuite({ now: NOW });
let studentToken: string;
let adminToken: string;

/** A published course of the demo school, by slug. */
const course = (slug: string) => db().course.findFirstOrThrow({ where: { schoolId: DEMO_IDS.school, slug } });

beforeAll(async () => {
  studentToken = await mcpToken(app, await signIn(app, "student@schoolhouse.test"), { schoolId: DEMO_IDS.school });
  adminToken = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school });
});

describe("discovery and authorization (RFC 9728, RFC 6750)", () => {
  it("serves protected resource metadata at the path-suffixed and the root form", async () => {
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const res = await app.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const body = await res.json();
      expect(body).toMatchObject({ resource: `${app.url}/mcp`, authorization_servers: [app.url], bearer_methods_supported: ["header"] });
      expect(body.scopes_supported).toEqual(expect.arrayContaining(["subscriptions:read", "subscriptions:write", "enrollments:write", "webhooks:manage", "courses:read"]));
    }
  });

  it("publishes an MCP Server Card (SEP-2127) per school origin, consistent with the live server", async () => {
    // The card's constraints from the Server Card schema (experimental-ext-server-card, v2).
    const input = { type: "object", additionalProperties: false, required: ["name"], properties: { name: { type: "string" }, description: { type: "string" }, isRequired: { type: "boolean" }, isSecret: { type: "boolean" } } };
    const cardSchema = {
      type: "object",
      additionalProperties: false,
      required: ["$schema", "name", "version", "description"],
      properties: {
        $schema: { const: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json" },
        name: { type: "string", minLength: 3, maxLength: 200, pattern: "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$" },
        version: { type: "string", maxLength: 255 },
        description: { type: "string", minLength: 1, maxLength: 100 },
        title: { type: "string", minLength: 1, maxLength: 100 },
        websiteUrl: { type: "string", format: "uri" },
        remotes: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["type", "url"],
            properties: {
              type: { enum: ["streamable-http", "sse"] },
              url: { type: "string", pattern: "^https?://[^\\s]+$" },
              headers: { type: "array", items: input },
              supportedProtocolVersions: { type: "array", items: { type: "string" } },
            },
          },
        },
      },
    };
    const check = new Ajv({ strict: false, allErrors: true }).compile(cardSchema);
    for (const [host, origin, title] of [
      [undefined, app.url, "Schoolhouse Demo Academy (Schoolhouse)"],
      ["acme-training.localhost", "http://acme-training.localhost", "Acme Corp Training (Schoolhouse)"],
    ] as const) {
      const res = await app.fetch("/.well-known/mcp/server-card.json", { headers: host ? { host } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const card = await res.json();
      expect(check(card), JSON.stringify(check.errors)).toBe(true);
      expect(card).toMatchObject({ title, websiteUrl: origin, remotes: [{ type: "streamable-http", url: `${origin}/mcp` }] });
      expect(card.remotes[0].supportedProtocolVersions).toContain("2025-06-18");
    }
    // Its identity is the one the server gives at initialize.
    const client = await mcpClient(app, studentToken);
    const card = await (await app.fetch("/.well-known/mcp/server-card.json")).json();
    expect(card.name.endsWith(`/${client.getServerVersion()!.name}`)).toBe(true);
    expect(card.version).toBe(client.getServerVersion()!.version);
    await client.close();
    // The card's own media type when asked for; no card where no school is served.
    const typed = await app.fetch("/.well-known/mcp/server-card.json", { headers: { accept: "application/mcp-server-card+json" } });
    expect(typed.headers.get("content-type")).toBe("application/mcp-server-card+json; charset=utf-8");
    expect((await app.fetch("/.well-known/mcp/server-card.json", { headers: { host: "nowhere.example" } })).status).toBe(404);
  });

  it("answers 401 with resource_metadata and the scopes to request; CORS exposes WWW-Authenticate", async () => {
    const res = await rpc(app, toolCall("search_catalog", { query: "sql" }));
    expect(res.status).toBe(401);
    const challenge = res.headers.get("www-authenticate")!;
    expect(challenge).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="openid profile email courses:read students:read subscriptions:read subscriptions:write enrollments:write webhooks:manage"');
    expect(res.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
    expect((await res.json()).error.code).toBe(-32001);

    const pre = await app.fetch("/mcp", { method: "OPTIONS", headers: { origin: "https://agent.example", "access-control-request-method": "POST" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Mcp-Protocol-Version/);
  });

  it("refuses a token issued for another resource, or for no resource", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    for (const resource of [`${app.url}/api/other`, null]) {
      const token = await mcpToken(app, cookie, { schoolId: DEMO_IDS.school, resource });
      const res = await rpc(app, toolCall("search_catalog", { query: "" }), { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect((await res.json()).error.message).toMatch(/not issued for this resource/);
    }
  });

  it("refuses another school's token and another school's API key", async () => {
    const acmeToken = await mcpToken(app, await signIn(app, "multi@schoolhouse.test"), { schoolId: DEMO_IDS.acmeSchool });
    const res = await rpc(app, toolCall("search_catalog", { query: "" }), { authorization: `Bearer ${acmeToken}` });
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toBe("The access token was issued for another school.");
    const key = await rpc(app, toolCall("search_catalog", { query: "" }), { authorization: `Bearer ${ACME_API_KEY}` });
    expect(key.status).toBe(401);
    expect((await key.json()).error.message).toBe("This API key belongs to another school.");
  });

  it("refuses a revoked token", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const token = await mcpToken(app, cookie, { schoolId: DEMO_IDS.school });
    expect((await rpc(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { authorization: `Bearer ${token}` })).status).toBe(200);
    const revoked = await app.fetch("/api/oauth/revoke", form({ token, client_id: "demo-public-app" }));
    expect(revoked.status).toBe(200);
    const res = await rpc(app, { jsonrpc: "2.0", id: 1, method: "ping" }, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("a missing scope is 403 insufficient_scope naming the scopes to ask for (step-up)", async () => {
    const token = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school, scope: "openid courses:read" });
    const res = await rpc(app, toolCall("list_subscriptions"), { authorization: `Bearer ${token}` });
    expect(res.status).toBe(403);
    const challenge = res.headers.get("www-authenticate")!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="courses:read openid subscriptions:read"');
    // Tools that need no more than the token has still work with it.
    const client = await mcpClient(app, token);
    expect((await call(client, "list_my_enrollments")).isError).toBeFalsy();
    await client.close();
  });
});

describe("as a student", () => {
  it("lists every tool with input and output schemas and truthful annotations", async () => {
    const client = await mcpClient(app, studentToken);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(byName.search_catalog).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.create_subscription).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName.cancel_subscription).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(byName.enroll_student).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    await client.close();
  });

  it("searches the catalog, reads pages and plans; school text is marked untrusted", async () => {
    const client = await mcpClient(app, studentToken);
    const found = await call(client, "search_catalog", { query: "SQL", kind: "course" });
    const results = (found.structuredContent as { results: Array<Record<string, unknown>> }).results;
    const sql = results.find((r) => r.slug === "intro-to-sql")!;
    expect(sql).toMatchObject({ kind: "course", title: "Intro to SQL", url: `${app.url}/courses/intro-to-sql`, markdown_url: `${app.url}/api/md/courses/intro-to-sql` });
    expect(results.every((r) => r.kind === "course")).toBe(true);
    expect(text(found)).toContain("<untrusted-content>");

    const md = await (await app.fetch("/api/md/courses/intro-to-sql")).text();
    for (const args of [{ url: `${app.url}/courses/intro-to-sql` }, { url: `${app.url}/api/md/courses/intro-to-sql` }, { kind: "course", slug: "intro-to-sql" }]) {
      const page = await call(client, "get_page", args);
      expect(page.isError).toBeFalsy();
      expect((page.structuredContent as { markdown: string }).markdown).toBe(md);
    }
    const missing = await call(client, "get_page", { kind: "course", slug: "no-such-course" });
    expect(missing).toMatchObject({ isError: true });
    expect(text(missing)).toBe("No published course has the slug `no-such-course`.");
    expect(text(await call(client, "get_page", { url: "https://elsewhere.example/courses/x" }))).toMatch(/must be a page of this school's site/);

    const plans = (await call(client, "list_membership_plans")).structuredContent as { plans: Array<{ id: string; status: string; price: string }> };
    expect(plans.plans.length).toBeGreaterThan(0);
    expect(plans.plans.every((p) => p.status === "published" && /^\d+\.\d\d$/.test(p.price))).toBe(true);
    await client.close();
  });

  it("reads their own profile, subscriptions and enrollments", async () => {
    const client = await mcpClient(app, studentToken);
    const me = await call(client, "get_my_profile");
    expect(me.structuredContent).toMatchObject({ sub: DEMO_IDS.users.student, email: "student@schoolhouse.test", org_id: DEMO_IDS.school, roles: ["student"] });
    const subs = await call(client, "list_my_subscriptions");
    expect(subs.structuredContent).toEqual({ subscriptions: expect.any(Array) });
    expect(await call(client, "list_my_enrollments")).toMatchObject({ structuredContent: { enrollments: expect.any(Array) } });
    await client.close();
  });

  it("cannot use staff tools: a tool error names the role, and nothing is written", async () => {
    const client = await mcpClient(app, studentToken);
    const before = await db().subscription.count();
    const r = await call(client, "create_subscription", { email: "new@example.com", name: "New", planId: DEMO_IDS.plans.monthly });
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("create_subscription is for staff: it needs the owner, manager or admin role at Schoolhouse Demo Academy.");
    expect(await db().subscription.count()).toBe(before);
    expect((await call(client, "list_subscriptions")).isError).toBe(true);
    await client.close();
  });
});

describe("as an admin", () => {
  it("creates, lists, updates and cancels a subscription, and enrolls a student, with the Admin API's rules", async () => {
    const client = await mcpClient(app, adminToken);
    const created = await call(client, "create_subscription", { email: "Agent.Made@Example.com", name: "Agent Made", planId: DEMO_IDS.plans.monthly });
    expect(created.isError).toBeFalsy();
    const sub = (created.structuredContent as { dryRun: boolean; subscription: Record<string, unknown> & { id: string } }).subscription;
    expect(sub).toMatchObject({ state: "active", createdAt: T, startAt: T, isCanceling: false, isCancellable: true, user: { email: "agent.made@example.com" } });

    const again = await call(client, "create_subscription", { email: "agent.made@example.com", planId: DEMO_IDS.plans.monthly });
    expect(again).toMatchObject({ isError: true });
    expect(text(again)).toBe("User already subscribed to this plan");
    expect(text(await call(client, "create_subscription", { email: "x@example.com", name: "X", planId: "nope" }))).toBe("Plan not found");

    const listed = await call(client, "list_subscriptions", { email: "agent.made@example.com", state: "active" });
    expect((listed.structuredContent as { subscriptions: Array<{ id: string }> }).subscriptions.map((s) => s.id)).toEqual([sub.id]);
    // The bound is in the input schema (issue 29): the SDK refuses it as a tool error naming the argument.
    const tooMany = await call(client, "list_subscriptions", { first: 1000 });
    expect(tooMany.isError).toBe(true);
    expect(text(tooMany)).toMatch(/Invalid arguments for tool list_subscriptions: .*<=100 at first/);

    const end = T + 40 * 86400;
    const updated = await call(client, "update_subscription", { id: sub.id, currentPeriodEnd: end });
    expect(updated.structuredContent).toMatchObject({ dryRun: false, subscription: { currentPeriodEnd: end, nextChargeDate: end } });
    expect(text(await call(client, "update_subscription", { id: sub.id, currentPeriodEnd: T + 11 * 366 * 86400 }))).toBe(
      "Timestamp cannot be more than 10 years in the future",
    );

    const canceled = await call(client, "cancel_subscription", { id: sub.id });
    expect(canceled.structuredContent).toMatchObject({ subscription: { state: "active", isCanceling: true, cancelAt: end } });
    const now = await call(client, "cancel_subscription", { id: sub.id, cancelAtPeriodEnd: false });
    expect(now.structuredContent).toMatchObject({ subscription: { state: "canceled", canceledAt: T, endAt: T, cancelAt: null } });
    expect(text(await call(client, "cancel_subscription", { id: sub.id }))).toBe("Subscription already cancelled");

    const sql = await course("intro-to-sql");
    const enrolled = await call(client, "enroll_student", { courseId: sql.id, email: "student@schoolhouse.test" });
    expect(enrolled.structuredContent).toMatchObject({ dryRun: false, enrollment: { course: { slug: sql.slug }, user: { email: "student@schoolhouse.test" } } });
    expect(text(await call(client, "enroll_student", { courseId: sql.id, email: "nobody-yet@example.com" }))).toBe("Name is required for new users");
    await client.close();

    // The student now sees the enrollment.
    const student = await mcpClient(app, studentToken);
    const mine = (await call(student, "list_my_enrollments")).structuredContent as { enrollments: Array<{ course: { id: string } }> };
    expect(mine.enrollments.map((e) => e.course.id)).toContain(sql.id);
    await student.close();
  });

  it("dry runs check everything and write nothing", async () => {
    const client = await mcpClient(app, adminToken);
    const counts = async () => [
      await db().subscription.count(),
      await db().user.count(),
      await db().enrollment.count(),
      await db().schoolMembership.count(),
      await db().webhookEvent.count(),
    ];
    const before = await counts();
    const dry = await call(client, "create_subscription", { email: "dry@example.com", name: "Dry Run", planId: DEMO_IDS.plans.monthly, dry_run: true });
    expect(dry.structuredContent).toMatchObject({ dryRun: true, subscription: { state: "active", user: { email: "dry@example.com" } } });
    expect(prose(dry)).toMatch(/^Dry run, nothing was written/);
    const python = await course("python-for-data-analysis");
    expect((await call(client, "enroll_student", { courseId: python.id, email: "dry2@example.com", name: "Dry", dry_run: true })).structuredContent).toMatchObject({ dryRun: true });
    // A failing dry run reports the same error as the real call.
    expect(text(await call(client, "create_subscription", { email: "dry@example.com", planId: DEMO_IDS.plans.monthly, dry_run: true }))).toBe("Name is required for new users");

    const real = await call(client, "create_subscription", { email: "dry-target@example.com", name: "Target", planId: DEMO_IDS.plans.monthly });
    const id = (real.structuredContent as { subscription: { id: string } }).subscription.id;
    const row = await db().subscription.findUniqueOrThrow({ where: { id } });
    const cancelDry = await call(client, "cancel_subscription", { id, cancelAtPeriodEnd: false, dry_run: true });
    expect(cancelDry.structuredContent).toMatchObject({ dryRun: true, subscription: { state: "canceled" } });
    const updateDry = await call(client, "update_subscription", { id, currentPeriodEnd: T + 9 * 86400, dry_run: true });
    expect(updateDry.structuredContent).toMatchObject({ dryRun: true, subscription: { currentPeriodEnd: T + 9 * 86400 } });
    expect(await db().subscription.findUniqueOrThrow({ where: { id } })).toEqual(row);
    const after = await counts();
    // Only the real create wrote: its subscription, user, membership, user.created and subscription.created events.
    expect(after).toEqual([before[0]! + 1, before[1]! + 1, before[2], before[3]! + 1, before[4]! + 2]);
    await client.close();
  });

  it("idempotent retries replay the first result; the same key with other arguments is refused", async () => {
    const client = await mcpClient(app, adminToken);
    const args = { email: "idem@example.com", name: "Idem", planId: DEMO_IDS.plans.monthly, idempotency_key: "mcp-idem-1" };
    const first = await call(client, "create_subscription", args);
    const second = await call(client, "create_subscription", args);
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(second._meta).toMatchObject({ "schoolhouse/idempotent_replay": true });
    expect(await db().subscription.count({ where: { user: { email: "idem@example.com" } } })).toBe(1);
    const reused = await call(client, "create_subscription", { ...args, name: "Other" });
    expect(reused).toMatchObject({ isError: true });
    expect(text(reused)).toMatch(/already used with different arguments/);
    expect(await db().idempotencyKey.count({ where: { grantId: await grantIdOf(adminToken), key: "mcp-idem-1" } })).toBe(1);
    await client.close();
  });
});

describe("a member's own data", () => {
  it("list_my_subscriptions and list_my_enrollments return exactly the caller's rows, never another member's", async () => {
    const admin = await mcpClient(app, adminToken);
    const sql = await course("intro-to-sql");
    for (const email of ["student@schoolhouse.test", "someone.else@example.com"]) {
      const made = await call(admin, "create_subscription", { email, name: "Member", planId: DEMO_IDS.plans.lifetime });
      expect(made.isError, text(made)).toBeFalsy();
      expect((await call(admin, "enroll_student", { courseId: sql.id, email, name: "Member" })).isError).toBeFalsy();
    }
    await admin.close();

    const other = await db().user.findUniqueOrThrow({ where: { email: "someone.else@example.com" } });
    const [mySubs, otherSubs] = await Promise.all(
      [DEMO_IDS.users.student, other.id].map((userId) => db().subscription.findMany({ where: { userId, plan: { schoolId: DEMO_IDS.school } }, select: { id: true } })),
    );
    expect(mySubs!.length).toBeGreaterThan(0);
    expect(otherSubs!.length).toBeGreaterThan(0);

    const student = await mcpClient(app, studentToken);
    const subs = (await call(student, "list_my_subscriptions")).structuredContent as { subscriptions: Array<{ id: string; user: { email: string } }> };
    expect(subs.subscriptions.map((s) => s.id).sort()).toEqual(mySubs!.map((s) => s.id).sort());
    expect(subs.subscriptions.every((s) => s.user.email === "student@schoolhouse.test")).toBe(true);
    const enrollments = (await call(student, "list_my_enrollments")).structuredContent as { enrollments: Array<{ user: { email: string } }> };
    expect(enrollments.enrollments.length).toBeGreaterThan(0);
    expect(enrollments.enrollments.every((e) => e.user.email === "student@schoolhouse.test")).toBe(true);
    await student.close();
  });
});

describe("Admin API keys as bearer credentials", () => {
  it("act with their permissions; member tools are refused", async () => {
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    expect((await call(client, "list_subscriptions", { first: 1 })).isError).toBeFalsy();
    expect((await call(client, "search_catalog", { query: "" })).isError).toBeFalsy();
    const me = await call(client, "get_my_profile");
    expect(me.isError).toBe(true);
    expect(text(me)).toMatch(/an Admin API key acts for the school, not a person/);
    await client.close();

    const none = await mcpClient(app, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS);
    const refused = await call(none, "create_subscription", { email: "k@example.com", name: "K", planId: DEMO_IDS.plans.monthly });
    expect(refused).toMatchObject({ isError: true });
    expect(text(refused)).toBe("Unauthorized");
    await none.close();
  });
});

describe("limits and hostile input", () => {
  it("the 11th concurrent call of one grant is refused with 429 and RateLimit headers", async () => {
    const credential = { kind: "oauth_app" as const, id: await grantIdOf(studentToken), schoolId: DEMO_IDS.school, permissions: [], enforceLimits: true };
    const held = [];
    for (let i = 0; i < 10; i++) {
      const a = await adminRateLimiter().begin({ credential, operationType: "queries" });
      expect(a.admitted).toBe(true);
      held.push(a);
    }
    const res = await rpc(app, toolCall("search_catalog", { query: "" }), { authorization: `Bearer ${studentToken}` });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("ratelimit")).toBe('"active-operations";r=0');
    const body = await res.json();
    expect(body.error).toMatchObject({ code: -32002, data: { code: "RATE_LIMITED", limiter: "active_operations" } });
    // Another grant is not affected.
    expect((await rpc(app, toolCall("search_catalog", { query: "" }), { authorization: `Bearer ${adminToken}` })).status).toBe(200);
    for (const a of held) if (a.admitted) await a.finish(0);
    const ok = await rpc(app, toolCall("search_catalog", { query: "" }), { authorization: `Bearer ${studentToken}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-policy")).toBe('"active-operations";q=10;qu="concurrent-requests"');
  });

  it("malformed JSON-RPC gets a JSON-RPC error; GET is 405; nothing is a 500", async () => {
    const auth = { authorization: `Bearer ${studentToken}` };
    const parse = await rpc(app, "{not json", auth);
    expect(parse.status).toBe(400);
    expect((await parse.json()).error.code).toBe(-32700);
    const invalid = await rpc(app, { hello: "world" }, auth);
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toBeDefined();
    const unknownTool = await rpc(app, toolCall("drop_tables"), auth);
    expect(unknownTool.status).toBe(200);
    expect(await unknownTool.json()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool: drop_tables" } });
    const badArgs = await rpc(app, toolCall("update_subscription", { id: 5 }), auth);
    expect(badArgs.status).toBe(200);
    const huge = await rpc(app, JSON.stringify(toolCall("search_catalog", { query: "x".repeat(1024 * 1024) })), auth);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.message).toBe("The request body is larger than 1 MiB.");
    const binary = await app.fetch("/mcp", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(binary.status).toBe(400);
    expect((await binary.json()).error.code).toBe(-32700);
    const get = await app.fetch("/mcp", { headers: { ...auth, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
  });
});

describe("tool results and errors as the MCP tools spec asks (issue 29)", () => {
  it("an unknown tool is a JSON-RPC error -32602, never a tool result", async () => {
    for (const name of ["drop_tables", "__proto__", "constructor", "Search_Catalog", ""]) {
      const res = await rpc(app, toolCall(name, { query: "" }), { authorization: `Bearer ${adminToken}` });
      const body = await res.json();
      expect(body.result, name).toBeUndefined();
      expect(body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    }
    // The SDK client sees a protocol error (McpError), as for any JSON-RPC error.
    const client = await mcpClient(app, adminToken);
    await expect(call(client, "drop_tables")).rejects.toMatchObject({ code: -32602 });
    // Arguments that fail the input schema stay tool errors, so a model can correct them (SEP-1303).
    expect(await call(client, "update_subscription", { id: 5 })).toMatchObject({ isError: true });
    await client.close();
  });

  it("a successful result's first text block is the JSON of its structuredContent; the prose follows", async () => {
    const client = await mcpClient(app, adminToken);
    const calls: Array<[string, Record<string, unknown>]> = [
      ["search_catalog", { query: "sql" }],
      ["get_page", { kind: "home" }],
      ["list_membership_plans", {}],
      ["get_my_profile", {}],
      ["list_subscriptions", { first: 2 }],
      ["list_webhook_endpoints", {}],
      ["create_subscription", { email: "json-block@example.com", name: "Jay Son", planId: DEMO_IDS.plans.monthly, dry_run: true }],
    ];
    for (const [name, args] of calls) {
      const r = await call(client, name, args);
      expect(r.isError, name).toBeFalsy();
      const [first] = r.content;
      expect(first?.type, name).toBe("text");
      expect(JSON.parse((first as { text: string }).text), name).toEqual(r.structuredContent);
    }
    // School text stays fenced in the prose block.
    expect(prose(await call(client, "search_catalog", { query: "sql" }))).toContain("<untrusted-content>");
    await client.close();
  });
});

describe("resources", () => {
  it("lists llms.txt and every catalog page as markdown, and reads them", async () => {
    const client = await mcpClient(app, studentToken);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`${app.url}/llms.txt`);
    expect(uris).toContain(`${app.url}/api/md/courses/intro-to-sql`);
    expect(uris).toContain(`${app.url}/api/md/home`);
    const page = await client.readResource({ uri: `${app.url}/api/md/courses/intro-to-sql` });
    expect(page.contents[0]).toMatchObject({ mimeType: "text/markdown", text: await (await app.fetch("/api/md/courses/intro-to-sql")).text() });
    const llms = await client.readResource({ uri: `${app.url}/llms.txt` });
    expect((llms.contents[0] as { text: string }).text).toContain(`${app.url}/mcp`);
    await client.close();
  });
});
