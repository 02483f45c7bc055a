import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isDatabaseUnavailable } from "../db/unavailable";
import { cachedLlmsTxt } from "../storefront/cached";
import { pageOfUrl } from "../storefront/page-address";
import { markdownPathOf } from "../storefront/routes";
import { searchCatalog } from "../storefront/search-catalog";
import { buildContext, refusal, type McpContext } from "./context";
import { fail, UNTRUSTED_NOTE } from "./results";
import { pageMarkdown, registerCatalogTools } from "./tools/catalog";
import { registerMemberTools } from "./tools/member";
import { registerStaffTools } from "./tools/staff";
import { registerWebhookTools } from "./tools/webhooks";

export const MCP_SERVER_INFO = { name: "schoolhouse", title: "Schoolhouse", version: "1.0.0" };

const PAGES = ["home", "faq", "course_index", "lecturer_index"] as const;

/**
 * One McpServer per request (stateless Streamable HTTP): tools and resources close over the
 * request's caller and school, so nothing of one caller can leak into another's request.
 */
export function buildMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      `Schoolhouse MCP server of ${ctx.school.name}. Catalog tools (search_catalog, get_page, list_membership_plans) read public content; ` +
      "get_my_profile, list_my_subscriptions and list_my_enrollments read the signed-in member's own data; list_subscriptions, create_subscription, " +
      "update_subscription, cancel_subscription, enroll_student and the webhook tools (list_webhook_endpoints, create_webhook_endpoint, " +
      "update_webhook_endpoint, delete_webhook_endpoint, rotate_webhook_secret, list_webhook_deliveries, redeliver_webhook_event) are for staff " +
      "(owner, manager, admin); their writes take dry_run and idempotency_key. " +
      `Timestamps are Unix seconds. ${UNTRUSTED_NOTE}`,
  });
  // The SDK turns a thrown error into a tool result carrying its message, which could show
  // internals (SQL, driver errors). Every tool registered below goes through this instead: an
  // outage marks the request for a 503, anything else is logged and reported without detail.
  const register = server.registerTool.bind(server);
  server.registerTool = ((name: string, config: unknown, cb: (...args: unknown[]) => Promise<CallToolResult>) =>
    register(name, config as never, (async (...args: unknown[]) => {
      try {
        return await cb(...args);
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          ctx.outage = true;
          return fail("The school's database is unavailable right now; retry shortly.");
        }
        console.error(`mcp: tool ${name} failed`, err);
        return fail(`${name} failed unexpectedly; retry shortly.`);
      }
    }) as never)) as typeof server.registerTool;
  const guard = (tool: Parameters<typeof refusal>[1]) => refusal(ctx, tool);
  registerCatalogTools(server, ctx, guard);
  registerMemberTools(server, ctx, guard);
  registerStaffTools(server, ctx, guard);
  registerWebhookTools(server, ctx, guard);

  server.registerResource(
    "llms.txt",
    `${ctx.origin}/llms.txt`,
    { title: "llms.txt", description: "Linked index of the school's public content (llmstxt.org)", mimeType: "text/markdown" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: (await cachedLlmsTxt(buildContext(ctx))).value.body }] }),
  );

  server.registerResource(
    "catalog-page",
    new ResourceTemplate(`${ctx.origin}/api/md/{+path}`, {
      list: async () => {
        const entries = await searchCatalog({ ctx: buildContext(ctx), query: "", limit: 10_000 });
        return {
          resources: [
            ...PAGES.map((kind) => ({ uri: ctx.origin + markdownPathOf(kind), name: kind, mimeType: "text/markdown" })),
            ...entries.map((e) => ({ uri: e.markdown_url, name: `${e.kind}/${e.slug}`, title: e.title, mimeType: "text/markdown" })),
          ],
        };
      },
    }),
    { title: "Storefront page", description: `Every published page as markdown (the /api/md documents). ${UNTRUSTED_NOTE}`, mimeType: "text/markdown" },
    async (uri) => {
      const address = pageOfUrl(uri.href, ctx.origin);
      if ("error" in address) throw new Error(address.error);
      const found = await pageMarkdown(ctx, address.kind, address.slug);
      if ("error" in found) throw new Error(found.error);
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: found.page.body }] };
    },
  );
  return server;
}
