import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { adminAppForSuite } from "../admin-api/helpers";
import { signIn } from "../oauth/helpers";
import { call, grantIdOf, mcpClient, mcpToken, prose, rpc, text, toolCall } from "./helpers";

// The webhook endpoint operations of the Admin API as MCP staff tools (issue 14): same verbs, same
// rules and messages, the webhooks:manage scope plus a staff role, dry runs and idempotent retries.
const NOW = new Date("2026-11-21T12:00:00Z");
const T = NOW.getTime() / 1000;
const URL_A = "https://hooks.example.com/in";
// Demo data, the frozen clock and the HTTP server, as in the Admin API suites.
const app = adminAppForSuite({ now: NOW });
let studentToken: string;
let adminToken: string;

type Endpoint = { id: string; url: string; events: string[]; description: string; enabled: boolean; disabledReason: string | null; previousSecretExpiresAt: number | null };
type Delivery = { id: string; endpointId: string; eventId: string; eventType: string; status: string; attemptCount: number };
const structured = <T>(r: { structuredContent?: unknown }) => r.structuredContent as T;

beforeAll(async () => {
  studentToken = await mcpToken(app, await signIn(app, "student@schoolhouse.test"), { schoolId: DEMO_IDS.school });
  adminToken = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school });
});

async function withClient<T>(bearer: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = await mcpClient(app, bearer);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const webhookCounts = async () => [
  await db().webhookEndpoint.count(),
  await db().webhookDelivery.count(),
  await db().webhookEvent.count(),
  await db().idempotencyKey.count(),
];

describe("webhook tools as an admin", () => {
  it("lists the tools with schemas and truthful annotations", async () => {
    await withClient(adminToken, async (client) => {
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      for (const name of ["list_webhook_endpoints", "list_webhook_deliveries"]) {
        expect(byName[name]!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      }
      expect(byName.create_webhook_endpoint!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      expect(byName.update_webhook_endpoint!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(byName.delete_webhook_endpoint!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(byName.rotate_webhook_secret!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
      expect(byName.redeliver_webhook_event!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      for (const name of ["create_webhook_endpoint", "update_webhook_endpoint", "delete_webhook_endpoint", "rotate_webhook_secret", "redeliver_webhook_event"]) {
        expect(Object.keys(byName[name]!.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["dry_run", "idempotency_key"]));
        expect(byName[name]!.outputSchema?.type).toBe("object");
      }
    });
  });

  it("create (secret once), list, update, rotate, deliveries, redeliver, delete, with the Admin API's rules and messages", async () => {
    await withClient(adminToken, async (client) => {
      const created = await call(client, "create_webhook_endpoint", { url: URL_A, events: ["*"], description: "CRM sync" });
      expect(created.isError, text(created)).toBeFalsy();
      const { endpoint, secret, dryRun } = structured<{ endpoint: Endpoint; secret: string; dryRun: boolean }>(created);
      expect(dryRun).toBe(false);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(text(created)).toContain(secret);
      expect(endpoint).toMatchObject({ url: URL_A, events: ["*"], description: "CRM sync", enabled: true });
      const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      expect(row.secretCiphertext).not.toContain(secret.slice(6));

      // Never shown again: not by the list, not by an update.
      const listed = await call(client, "list_webhook_endpoints");
      expect(structured<{ endpoints: Endpoint[] }>(listed).endpoints.map((e) => e.id)).toContain(endpoint.id);
      expect(JSON.stringify(listed)).not.toContain(secret.slice(6));

      // The same refusals as the Admin API, as tool errors.
      expect(text(await call(client, "create_webhook_endpoint", { url: "https://10.0.0.7/in", events: ["*"] }))).toMatch(/private or special-use/);
      const badEvents = await call(client, "create_webhook_endpoint", { url: URL_A, events: ["order.paid"] });
      expect(badEvents.isError).toBe(true);
      // The accepted event types are in the input schema (issue 29): refused naming the argument.
      expect(text(badEvents)).toMatch(/Invalid arguments for tool create_webhook_endpoint: .*"subscription\.created".* at events\[0\]/);
      expect((await call(client, "create_webhook_endpoint", { url: URL_A, events: [] })).isError).toBe(true);
      expect(text(await call(client, "update_webhook_endpoint", { id: "00000000-0000-4000-8000-000000000000", enabled: false }))).toBe("Webhook endpoint not found");
      expect(text(await call(client, "delete_webhook_endpoint", { id: "nope" }))).toBe("Webhook endpoint not found");

      const updated = await call(client, "update_webhook_endpoint", { id: endpoint.id, events: ["subscription.created", "member.created"], enabled: false });
      expect(structured<{ endpoint: Endpoint }>(updated).endpoint).toMatchObject({ events: ["subscription.created", "member.created"], enabled: false, disabledReason: "Disabled by the school" });
      expect(JSON.stringify(updated)).not.toContain(secret.slice(6));
      const enabled = await call(client, "update_webhook_endpoint", { id: endpoint.id, enabled: true });
      expect(structured<{ endpoint: Endpoint }>(enabled).endpoint).toMatchObject({ enabled: true, disabledReason: null });

      const rotated = await call(client, "rotate_webhook_secret", { id: endpoint.id });
      const next = structured<{ endpoint: Endpoint; secret: string }>(rotated);
      expect(next.secret).toMatch(/^whsec_/);
      expect(next.secret).not.toBe(secret);
      expect(next.endpoint.previousSecretExpiresAt).toBe(T + 86_400);

      // An event for the endpoint: a subscription made through MCP.
      const sub = await call(client, "create_subscription", { email: "hooked@example.com", name: "Hooked", planId: DEMO_IDS.plans.monthly });
      expect(sub.isError, text(sub)).toBeFalsy();
      const deliveries = structured<{ deliveries: Delivery[] }>(await call(client, "list_webhook_deliveries", { endpointId: endpoint.id }));
      expect(deliveries.deliveries.map((d) => d.eventType).sort()).toEqual(["member.created", "subscription.created"]);
      // Bounds and values are in the input schema (issue 29): refused as tool errors naming the argument.
      expect(text(await call(client, "list_webhook_deliveries", { status: "lost" }))).toMatch(/Invalid arguments for tool list_webhook_deliveries: .*"pending"\|"succeeded"\|"failed" at status/);
      expect(text(await call(client, "list_webhook_deliveries", { first: 0 }))).toMatch(/Invalid arguments for tool list_webhook_deliveries: .*>=1 at first/);

      const event = deliveries.deliveries.find((d) => d.eventType === "subscription.created")!;
      const again = await call(client, "redeliver_webhook_event", { eventId: event.eventId, endpointId: endpoint.id });
      expect(structured<{ deliveries: Delivery[] }>(again).deliveries).toEqual([expect.objectContaining({ id: event.id, eventId: event.eventId, status: "pending", attemptCount: 0 })]);
      expect(text(await call(client, "redeliver_webhook_event", { eventId: "00000000-0000-4000-8000-000000000000" }))).toBe("Webhook event not found");

      const deleted = await call(client, "delete_webhook_endpoint", { id: endpoint.id });
      expect(structured(deleted)).toEqual({ dryRun: false, deletedId: endpoint.id });
      expect(await db().webhookEndpoint.count({ where: { id: endpoint.id } })).toBe(0);
      expect(await db().webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
      expect(text(await call(client, "rotate_webhook_secret", { id: endpoint.id }))).toBe("Webhook endpoint not found");
    });
  });

  it("dry runs check everything and write nothing", async () => {
    await withClient(adminToken, async (client) => {
      const made = structured<{ endpoint: Endpoint }>(await call(client, "create_webhook_endpoint", { url: URL_A, events: ["*"] })).endpoint;
      await call(client, "create_subscription", { email: "dry-hook@example.com", name: "Dry", planId: DEMO_IDS.plans.monthly });
      const [delivery] = structured<{ deliveries: Delivery[] }>(await call(client, "list_webhook_deliveries", { endpointId: made.id, first: 1 })).deliveries;
      const rows = async () => [
        await db().webhookEndpoint.findMany({ orderBy: { id: "asc" } }),
        await db().webhookDelivery.findMany({ orderBy: { id: "asc" } }),
        await webhookCounts(),
      ];
      const before = await rows();

      const create = await call(client, "create_webhook_endpoint", { url: "https://dry.example.com/in", events: ["*"], dry_run: true });
      expect(structured(create)).toMatchObject({ dryRun: true, secret: null, endpoint: { url: "https://dry.example.com/in" } });
      expect(prose(create)).toMatch(/^Dry run, nothing was written/);
      expect(text(await call(client, "create_webhook_endpoint", { url: "https://10.0.0.7/in", events: ["*"], dry_run: true }))).toMatch(/private or special-use/);
      expect(structured(await call(client, "update_webhook_endpoint", { id: made.id, enabled: false, dry_run: true }))).toMatchObject({
        dryRun: true,
        endpoint: { enabled: false },
      });
      expect(structured(await call(client, "rotate_webhook_secret", { id: made.id, dry_run: true }))).toMatchObject({ dryRun: true, secret: null });
      expect(structured(await call(client, "redeliver_webhook_event", { eventId: delivery!.eventId, dry_run: true }))).toMatchObject({ dryRun: true });
      expect(structured(await call(client, "delete_webhook_endpoint", { id: made.id, dry_run: true }))).toEqual({ dryRun: true, deletedId: made.id });
      expect(text(await call(client, "delete_webhook_endpoint", { id: "00000000-0000-4000-8000-000000000000", dry_run: true }))).toBe("Webhook endpoint not found");

      expect(await rows()).toEqual(before);
    });
  });

  it("an idempotent retry replays the first result without the secret; other arguments with the same key are refused", async () => {
    await withClient(adminToken, async (client) => {
      const args = { url: "https://idem.example.com/in", events: ["member.created"], idempotency_key: "mcp-hook-1" };
      const first = await call(client, "create_webhook_endpoint", args);
      const { endpoint, secret } = structured<{ endpoint: Endpoint; secret: string }>(first);
      expect(secret).toMatch(/^whsec_/);
      const second = await call(client, "create_webhook_endpoint", args);
      expect(second._meta).toMatchObject({ "schoolhouse/idempotent_replay": true });
      expect(structured(second)).toEqual({ dryRun: false, endpoint, secret: null });
      expect(JSON.stringify(second)).not.toContain(secret.slice(6));
      expect(await db().webhookEndpoint.count({ where: { url: args.url } })).toBe(1);
      // The kept copy does not hold the secret either.
      const kept = await db().idempotencyKey.findFirstOrThrow({ where: { grantId: await grantIdOf(adminToken), key: "mcp-hook-1" } });
      expect(JSON.stringify(kept)).not.toContain(secret.slice(6));
      const reused = await call(client, "create_webhook_endpoint", { ...args, events: ["*"] });
      expect(text(reused)).toMatch(/already used with different arguments/);

      const del = { id: endpoint.id, idempotency_key: "mcp-hook-del" };
      expect(structured(await call(client, "delete_webhook_endpoint", del))).toEqual({ dryRun: false, deletedId: endpoint.id });
      const replayed = await call(client, "delete_webhook_endpoint", del);
      expect(replayed.isError).toBeFalsy();
      expect(replayed._meta).toMatchObject({ "schoolhouse/idempotent_replay": true });
    });
  });
});

describe("webhook tools refused", () => {
  it("for a student (role): a tool error, nothing written", async () => {
    const before = await webhookCounts();
    await withClient(studentToken, async (client) => {
      const r = await call(client, "create_webhook_endpoint", { url: URL_A, events: ["*"] });
      expect(r.isError).toBe(true);
      expect(text(r)).toBe("create_webhook_endpoint is for staff: it needs the owner, manager or admin role at Schoolhouse Demo Academy.");
      for (const name of ["list_webhook_endpoints", "list_webhook_deliveries"]) expect((await call(client, name)).isError).toBe(true);
    });
    expect(await webhookCounts()).toEqual(before);
  });

  it("for a token without webhooks:manage: 403 insufficient_scope naming it", async () => {
    const token = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), {
      schoolId: DEMO_IDS.school,
      scope: "openid subscriptions:read subscriptions:write",
    });
    for (const name of ["list_webhook_endpoints", "create_webhook_endpoint", "redeliver_webhook_event"]) {
      const res = await rpc(app, toolCall(name, { url: URL_A, events: ["*"], eventId: "x" }), { authorization: `Bearer ${token}` });
      expect(res.status).toBe(403);
      const challenge = res.headers.get("www-authenticate")!;
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain("webhooks:manage");
    }
  });

  it("Admin API keys need the matching webhook permission", async () => {
    await withClient(DEFAULT_DEMO_API_KEY, async (client) => {
      expect((await call(client, "list_webhook_endpoints")).isError).toBeFalsy();
      expect((await call(client, "list_webhook_deliveries", { first: 1 })).isError).toBeFalsy();
    });
    const before = await webhookCounts();
    await withClient(DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, async (client) => {
      for (const [name, args] of [
        ["list_webhook_endpoints", {}],
        ["create_webhook_endpoint", { url: URL_A, events: ["*"] }],
      ] as const) {
        const r = await call(client, name, args);
        expect(r.isError).toBe(true);
        expect(text(r)).toBe("Unauthorized");
      }
    });
    expect(await webhookCounts()).toEqual(before);
  });
});
