import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MAX_PAGE_SIZE } from "../core/page";
import { WEBHOOK_EVENT_TYPES } from "../db/outbox";
import { buildMcpServer } from "./server";

type Property = { description?: string; type?: string; minimum?: number; maximum?: number; minLength?: number; maxLength?: number; enum?: unknown[]; items?: Property };

async function listedTools(): Promise<Tool[]> {
  const server = buildMcpServer({ origin: "http://school.test", schoolName: "Test School" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "schema-test", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

const properties = (tool: Tool) => Object.entries((tool.inputSchema.properties ?? {}) as Record<string, Property>);

describe("MCP tool input schemas (issue 29)", () => {
  it("describe every input property", async () => {
    const tools = await listedTools();
    expect(tools.length).toBeGreaterThan(15);
    const all = tools.flatMap((t) => properties(t).map(([name, p]) => ({ at: `${t.name}.${name}`, p })));
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter(({ p }) => !p.description || p.description.trim().length < 10).map(({ at }) => at)).toEqual([]);
  });

  it("state every bound the API enforces", async () => {
    const tools = new Map((await listedTools()).map((t) => [t.name, new Map(properties(t))]));
    const prop = (tool: string, name: string) => tools.get(tool)!.get(name)!;
    for (const [tool, name] of [["list_subscriptions", "first"], ["list_webhook_deliveries", "first"], ["list_members", "first"], ["list_enrollments", "first"], ["list_payments", "first"], ["list_audit_events", "first"]]) {
      expect(prop(tool!, name!), `${tool}.${name}`).toMatchObject({ type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE });
    }
    expect(prop("list_payments", "state").enum).toEqual(["pending", "succeeded", "failed", "refunded"]);
    expect(prop("list_audit_events", "actorType").enum).toEqual(["member", "api_key", "oauth_client", "system", "cli"]);
    for (const [tool, name] of [["list_payments", "userId"], ["list_payments", "subscriptionId"], ["list_payments", "after"], ["list_audit_events", "action"], ["list_audit_events", "targetId"]]) {
      expect(prop(tool!, name!).maxLength, `${tool}.${name}`).toBeGreaterThan(0);
    }
    expect(prop("search_catalog", "limit")).toMatchObject({ minimum: 1, maximum: 100 });
    expect(prop("list_webhook_deliveries", "status").enum).toEqual(["pending", "succeeded", "failed"]);
    expect(prop("list_subscriptions", "state").enum).toContain("past_due");
    expect(prop("list_members", "state").enum).toContain("past_due");
    expect(prop("list_members", "search").maxLength).toBe(254);
    for (const [tool, name] of [["list_members", "planId"], ["list_members", "after"], ["get_member", "id"], ["list_enrollments", "userId"], ["list_enrollments", "courseId"]]) {
      expect(prop(tool!, name!).maxLength, `${tool}.${name}`).toBeGreaterThan(0);
    }
    for (const tool of ["create_webhook_endpoint", "update_webhook_endpoint"]) {
      expect(prop(tool, "url").maxLength).toBe(2048);
      expect(prop(tool, "description").maxLength).toBe(500);
    }
    for (const tool of ["create_subscription", "update_subscription", "cancel_subscription", "pause_subscription", "resume_subscription", "change_subscription_plan", "refund_payment", "enroll_student", "create_webhook_endpoint", "redeliver_webhook_event"]) {
      expect(prop(tool, "idempotency_key"), tool).toMatchObject({ minLength: 1, maxLength: 255 });
    }
    for (const [tool, name] of [["create_subscription", "expireAt"], ["create_subscription", "initialChargeAt"], ["update_subscription", "currentPeriodEnd"], ["cancel_subscription", "customEndedAt"]]) {
      expect(prop(tool!, name!), `${tool}.${name}`).toMatchObject({ type: "integer", minimum: -2147483648, maximum: 2147483647 });
    }
    expect(prop("create_subscription", "email").maxLength).toBe(254);
    for (const tool of ["pause_subscription", "resume_subscription", "change_subscription_plan"]) {
      expect(prop(tool, "id"), tool).toMatchObject({ type: "string", maxLength: 64 });
      expect(prop(tool, "id").description, tool).toBeTruthy();
      expect(prop(tool, "dry_run").description, tool).toBeTruthy();
    }
    expect(prop("change_subscription_plan", "planId")).toMatchObject({ type: "string", maxLength: 64 });
    expect(prop("refund_payment", "paymentId")).toMatchObject({ type: "string", maxLength: 64 });
    expect(prop("refund_payment", "amount")).toMatchObject({ type: "string", maxLength: 32 });
    expect(prop("create_checkout_link", "plan_id")).toMatchObject({ type: "string", minLength: 1, maxLength: 64 });
    for (const name of ["course_slug", "download_slug"]) {
      expect(prop("create_checkout_link", name), name).toMatchObject({ type: "string", minLength: 1, maxLength: 200, pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" });
    }
    expect(prop("create_checkout_link", "email").maxLength).toBe(320);
    expect(prop("create_checkout_link", "name").maxLength).toBe(200);
    for (const tool of ["create_webhook_endpoint", "update_webhook_endpoint"]) {
      const events = prop(tool, "events") as Property & { minItems?: number };
      expect(events.minItems, tool).toBe(1);
      expect(events.items!.enum, tool).toEqual([...WEBHOOK_EVENT_TYPES, "*"]);
    }
  });
});
