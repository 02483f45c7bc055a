import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { TOOL_ACCESS } from "@/lib/mcp/access";
import { appForSuite } from "../../helpers/app-for-suite";
import { signIn } from "../oauth/helpers";
import { mcpToken, rpc } from "./helpers";

// Seeded property-based fuzzing of /mcp: hostile bodies never get a 5xx or leak internals, always
// get a JSON-RPC answer, and change no data (writes are fuzzed as dry runs or by a student).
const SEED = 1313;
const app = appForSuite();
let adminToken: string;
let studentToken: string;

beforeAll(async () => {
  adminToken = await mcpToken(app, await signIn(app, "admin@schoolhouse.test"), { schoolId: DEMO_IDS.school });
  studentToken = await mcpToken(app, await signIn(app, "student@schoolhouse.test"), { schoolId: DEMO_IDS.school });
});

const WEBHOOK_TOOLS = ["list_webhook_endpoints", "create_webhook_endpoint", "update_webhook_endpoint", "delete_webhook_endpoint", "rotate_webhook_secret", "list_webhook_deliveries", "redeliver_webhook_event"];
const TOOLS = ["search_catalog", "get_page", "list_membership_plans", "get_my_profile", "list_my_subscriptions", "list_my_enrollments", "create_checkout_link", "list_subscriptions", "create_subscription", "update_subscription", "cancel_subscription", "enroll_student", "list_members", "get_member", "list_enrollments", "list_payments", "list_audit_events", ...WEBHOOK_TOOLS];
const WRITES = new Set(
  Object.entries(TOOL_ACCESS)
    .filter(([, access]) => access.writes)
    .map(([name]) => name),
);

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));
const toolArgs = fc.dictionary(
  fc.oneof(fc.constantFrom("query", "kind", "slug", "url", "email", "name", "planId", "plan_id", "course_slug", "download_slug", "id", "courseId", "search", "userId", "currentPeriodEnd", "customEndedAt", "cancelAtPeriodEnd", "first", "after", "state", "idempotency_key", "expireAt", "initialChargeAt", "limit", "events", "description", "enabled", "endpointId", "eventId", "status"), fc.string()),
  anyValue,
  { maxKeys: 6 },
);
const toolCallBody = fc.record({
  jsonrpc: fc.constantFrom("2.0", "1.0", 2),
  id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
  method: fc.constant("tools/call"),
  params: fc.record({ name: fc.oneof(fc.constantFrom(...TOOLS), fc.string()), arguments: toolArgs }),
});
const otherBody = fc.record(
  { jsonrpc: fc.constantFrom("2.0", "x"), id: fc.oneof(fc.integer(), fc.string()), method: fc.oneof(fc.constantFrom("initialize", "tools/list", "resources/list", "resources/read", "ping", "prompts/list", "notifications/initialized"), fc.string()), params: anyValue },
  { requiredKeys: [] },
);
const rawBody = fc.oneof(fc.string(), fc.constantFrom("", "{", "[]", "[{}]", "null", '{"jsonrpc":"2.0"}', "\u0000"));

/** Writes only as dry runs (admin) so the database must stay as it was. */
function disarm(body: unknown, asAdmin: boolean): unknown {
  if (!asAdmin || !body || typeof body !== "object") return body;
  const b = body as { params?: { name?: string; arguments?: Record<string, unknown> } };
  if (b.params?.name && WRITES.has(b.params.name) && b.params.arguments) b.params.arguments.dry_run = true;
  return body;
}

describe("/mcp under hostile input", () => {
  it("never answers 5xx, always JSON-RPC, leaks nothing, changes nothing", async () => {
    const counts = async () => [
      await db().subscription.count(),
      await db().user.count(),
      await db().enrollment.count(),
      await db().idempotencyKey.count(),
      await db().webhookEndpoint.count(),
      await db().webhookDelivery.count(),
    ];
    const before = await counts();
    await fc.assert(
      fc.asyncProperty(fc.oneof(toolCallBody, otherBody, rawBody), fc.boolean(), async (body, asAdmin) => {
        const payload = typeof body === "string" ? body : JSON.stringify(disarm(body, asAdmin));
        const res = await rpc(app, payload, { authorization: `Bearer ${asAdmin ? adminToken : studentToken}` });
        expect(res.status).toBeLessThan(500);
        const text = await res.text();
        if (res.status === 202) return;
        expect(text).not.toMatch(/PrismaClient|Invalid `|at async |node_modules|\.ts:\d+/);
        const json = JSON.parse(text);
        expect(json.jsonrpc).toBe("2.0");
      }),
      { seed: SEED, numRuns: 200 },
    );
    expect(await counts()).toEqual(before);
  }, 120_000);
});
