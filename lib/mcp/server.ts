import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { isDatabaseUnavailable } from "../db/unavailable";
import { cachedLlmsTxt } from "../storefront/cached";
import { pageOfUrl } from "../storefront/page-address";
import { markdownPathOf } from "../storefront/routes";
import { searchCatalog } from "../storefront/search-catalog";
import type { ToolName } from "./access";
import { buildContext, contextOf, refusal } from "./context";
import { fail, UNTRUSTED_NOTE } from "./results";
import { MCP_SERVER_INFO } from "./server-info";
import type { ToolRegistrar } from "./tool-registrar";
import { pageMarkdown, registerCatalogTools } from "./tools/catalog";
import { registerCheckoutTools } from "./tools/checkout";
import { registerMemberTools } from "./tools/member";
import { registerStaffTools } from "./tools/staff";
import { registerStaffReadTools } from "./tools/staff-reads";
import { registerWebhookTools } from "./tools/webhooks";

export { MCP_SERVER_INFO };

const PAGES = ["home", "faq", "course_index", "lecturer_index"] as const;

/** What a built server has baked in (instructions, resource URIs); everything else comes with each message. */
export interface McpServerShape {
  /** The school's origin: the resources' URIs. */
  origin: string;
  /** The school's name: the instructions. */
  schoolName: string;
}

// Only validates elicitation answers, which this server never asks for; one instance instead of
// one Ajv (and its meta-schemas) per server.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * An McpServer with every tool and resource, for one origin and school name. It holds no caller:
 * each handler takes its request's context from the message (`contextOf(extra)`: the transport
 * hands the request's authInfo to every message it carries), so a server built once serves any
 * number of requests, one at a time (lib/mcp/server-pool.ts).
 */
export function buildMcpServer(shape: McpServerShape): McpServer {
  const { origin } = shape;
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    jsonSchemaValidator,
    instructions:
      `Schoolhouse MCP server of ${shape.schoolName}. Catalog tools (search_catalog, get_page, list_membership_plans) read public content; ` +
      "get_my_profile, list_my_subscriptions and list_my_enrollments read the signed-in member's own data; create_checkout_link returns a payment page link for a plan, a paid course or a paid download (the card is typed there, never here); list_subscriptions, create_subscription, " +
      "update_subscription, cancel_subscription, pause_subscription, resume_subscription, change_subscription_plan, refund_payment, enroll_student, list_members, get_member, list_enrollments, list_payments, list_audit_events and the webhook tools (list_webhook_endpoints, create_webhook_endpoint, " +
      "update_webhook_endpoint, delete_webhook_endpoint, rotate_webhook_secret, list_webhook_deliveries, redeliver_webhook_event) are for staff " +
      "(owner, manager, admin); their writes take dry_run and idempotency_key. " +
      `Timestamps are Unix seconds. ${UNTRUSTED_NOTE}`,
  });
  // Every tool goes through here: the caller's role or API key permission is checked before the
  // tool runs (refusal, lib/mcp/context.ts). The SDK would turn a thrown error into a tool result
  // carrying its message, which could show internals (SQL, driver errors): instead an outage marks
  // the request for a 503, anything else is logged and reported without detail.
  const tool: ToolRegistrar<ToolName> = (name, config, run) => {
    server.registerTool(name, config, (async (args: never, extra: Parameters<typeof contextOf>[0]) => {
      const ctx = contextOf(extra);
      try {
        const refused = refusal(ctx, name);
        if (refused) return fail(refused);
        return await run(args, ctx);
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          ctx.outage = true;
          return fail("The school's database is unavailable right now; retry shortly.");
        }
        console.error(`mcp: tool ${name} failed`, err);
        return fail(`${name} failed unexpectedly; retry shortly.`);
      }
    }) as never);
  };
  registerCatalogTools(tool);
  registerMemberTools(tool);
  registerCheckoutTools(tool);
  registerStaffTools(tool);
  registerStaffReadTools(tool);
  registerWebhookTools(tool);

  server.registerResource(
    "llms.txt",
    `${origin}/llms.txt`,
    { title: "llms.txt", description: "Linked index of the school's public content (llmstxt.org)", mimeType: "text/markdown" },
    async (uri, extra) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: (await cachedLlmsTxt(buildContext(contextOf(extra)))).value.body }] }),
  );

  server.registerResource(
    "catalog-page",
    new ResourceTemplate(`${origin}/api/md/{+path}`, {
      list: async (extra) => {
        const entries = await searchCatalog({ ctx: buildContext(contextOf(extra)), query: "", limit: 10_000 });
        return {
          resources: [
            ...PAGES.map((kind) => ({ uri: origin + markdownPathOf(kind), name: kind, mimeType: "text/markdown" })),
            ...entries.map((e) => ({ uri: e.markdown_url, name: `${e.kind}/${e.slug}`, title: e.title, mimeType: "text/markdown" })),
          ],
        };
      },
    }),
    { title: "Storefront page", description: `Every published page as markdown (the /api/md documents). ${UNTRUSTED_NOTE}`, mimeType: "text/markdown" },
    async (uri, _variables, extra) => {
      const ctx = contextOf(extra);
      const address = pageOfUrl(uri.href, ctx.origin);
      if ("error" in address) throw new Error(address.error);
      const found = await pageMarkdown(ctx, address.kind, address.slug);
      if ("error" in found) throw new Error(found.error);
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: found.page.body }] };
    },
  );
  return server;
}
