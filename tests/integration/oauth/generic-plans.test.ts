// The plan a hot statement is cached with must not read its tables sequentially, even when it is
// made while they are small. The hot statements of the token endpoint, introspection, UserInfo, the
// Admin API and MCP are named (lib/db/raw.ts), and on the embedded database every statement Prisma
// sends is cached too (lib/db/pglite-statement-cache.ts): after five executions Postgres keeps one generic plan
// for each, chosen without the parameters' values and with the tables' size at that moment, until
// the tables' stats change. On the embedded database, a generic plan made on the demo school's few
// rows read every refresh token sequentially for each refresh, for as long as it stayed cached (it
// goes only when the server's maintenance loop analyzes the table, lib/db/embedded-vacuum.ts): a
// refresh then cost more the more tokens there were (docs/benchmarks.md, "The embedded database").
// Not here: the Admin API's batched reads by a list of ids (`= ANY($1)`, e.g.
// admin-payments-of-subscriptions). Their generic plan is a scan only while the table is small and
// was never analyzed (the cheapest plan then); once it is analyzed, even at 2,000 rows, it is the
// index, and stays so as the table grows (checked in process, 2026-11-28). PGlite, and Postgres
// with TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { forgetApiKeys } from "@/lib/credentials/api-key-cache";
import { dbHandle } from "@/lib/db/client";
import { DEFAULT_DEMO_API_KEY, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { genericPlanOf, planNodes, rowStatementsDuring } from "../../helpers/statements";
import { exchangeCode, form, getCode, signIn, tokensFor, type TokenBody } from "./helpers";

const app = appForSuite({ host: "demo.localhost" });
let cookie: string;

beforeAll(async () => {
  cookie = await signIn(app, "student@schoolhouse.test");
});

/**
 * Tables a generic plan may read whole: a school's webhook endpoints (a few rows a school, read by
 * the outbox fan-out of every write; lib/db/outbox-fan-out.ts). On a table that small a sequential
 * scan is the planner's right choice, and the cached plan is made again whenever one of the
 * statement's other tables is analyzed.
 */
const SMALL_BY_NATURE = new Set(["WebhookEndpoint"]);

/**
 * The tables the generic plans of the cached statements scan sequentially, but for those small by
 * nature. On Postgres only the named ones keep a plan: an unnamed statement (Prisma's, and raw ones
 * without a name) is planned for its values at every execution. On the embedded database every
 * statement Prisma sends is cached as well (lib/db/pglite-statement-cache.ts).
 */
async function seqScans(statements: { sql: string; args: unknown[]; name?: string }[]): Promise<string[]> {
  const everyStatementCached = dbHandle().driver.kind === "pglite";
  const found: string[] = [];
  for (const s of statements.filter((s) => s.name || everyStatementCached)) {
    for (const node of planNodes(await genericPlanOf(s))) {
      if (node["Node Type"] === "Seq Scan" && !SMALL_BY_NATURE.has(node["Relation Name"]!)) {
        found.push(`${node["Relation Name"]} in ${s.name ?? "Prisma's"}: ${s.sql.replace(/\s+/g, " ").slice(0, 120)}…`);
      }
    }
  }
  return found;
}

const refresh = (token: string) => app.fetch("/api/oauth/token", form({ grant_type: "refresh_token", refresh_token: token, client_id: "demo-public-app" }));

describe("generic plans of the OAuth hot statements, on the demo school's few rows", () => {
  it("the refresh grant's one statement finds the token it rotates by its hash, not by reading the table", async () => {
    const tokens = await tokensFor(app, cookie, { scope: "openid offline_access" });
    const statements = await rowStatementsDuring(async () => {
      const res = await refresh(tokens.refresh_token);
      expect(res.status).toBe(200);
    });
    expect(statements.some((s) => s.name === "refresh-token-grant" && s.sql.includes('UPDATE "OAuthRefreshToken"'))).toBe(true);
    expect(await seqScans(statements)).toEqual([]);
  });

  it("the code exchange, introspection and UserInfo", async () => {
    const { code } = await getCode(app, cookie, { client_id: "demo-public-app", redirect_uri: "http://localhost:3000/oauth/callback", scope: "openid profile email" });
    let tokens: TokenBody | undefined;
    const statements = await rowStatementsDuring(async () => {
      const res = await exchangeCode(app, code);
      expect(res.status).toBe(200);
      tokens = (await res.json()) as TokenBody;
      expect((await app.fetch("/api/oauth/introspect", form({ client_id: "demo-public-app", token: tokens.access_token }))).status).toBe(200);
      expect((await app.fetch("/api/oauth/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(200);
    });
    expect(statements.filter((s) => s.name).map((s) => s.name)).toEqual(expect.arrayContaining(["find-authorization-code", "consume-authorization-code", "active-access-token"]));
    expect(await seqScans(statements)).toEqual([]);
  });
});

describe("generic plans of the Admin API's and MCP's hot writes", () => {
  it("an API key's verification and createSubscription for a new member, through GraphQL and MCP", async () => {
    forgetApiKeys();
    const statements = await rowStatementsDuring(async () => {
      const graphql = await app.fetch("/admin/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-api-key": DEFAULT_DEMO_API_KEY },
        body: JSON.stringify({ query: `mutation { createSubscription(input: { email: "generic.plan@example.com", name: "Generic Plan", planId: "${DEMO_IDS.plans.monthly}" }) { errors subscription { id } } }` }),
      });
      expect(await graphql.text()).toContain('"errors":[]');
      const mcp = await app.fetch("/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", authorization: `Bearer ${DEFAULT_DEMO_API_KEY}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_subscription", arguments: { email: "generic.plan.mcp@example.com", name: "Generic Plan", planId: DEMO_IDS.plans.monthly } } }),
      });
      expect(await mcp.text()).toContain('"structuredContent"');
    });
    expect(statements.filter((s) => s.name).map((s) => s.name)).toEqual(expect.arrayContaining(["load-api-key", "subscribe-new-member"]));
    expect(await seqScans(statements)).toEqual([]);
  });
});
