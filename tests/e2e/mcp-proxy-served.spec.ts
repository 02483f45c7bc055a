// POST /mcp is answered with the route's own handler (lib/mcp/handler.ts) after the edge guard,
// without Next's route stage: by the front under the production entry (server/start.mjs, this
// suite's server), by proxy.ts under Next alone. The answer must be the MCP handler's, with nothing
// of Next's route stage (its `Vary: rsc, …`) and nothing lost (CORS, budget headers, challenges,
// body limits). Other methods still reach app/mcp/route.ts.
import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { DEFAULT_DEMO_API_KEY } from "@/lib/startup/seed/demo-data";
import { baseURL } from "../../playwright.config";

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
const { hostname, port } = new URL(baseURL);

/** A raw POST: the path goes on the wire exactly as written, the Host header as given. */
function rawPost(path: string, host: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${DEFAULT_DEMO_API_KEY}`, host, "content-length": String(Buffer.byteLength(body)) };
    const req = httpRequest({ host: hostname, port, method: "POST", path, headers, setHost: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const searchSql = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_catalog", arguments: { query: "sql" } } });

test.describe("POST /mcp answered by the proxy", () => {
  test("a tools/call answers with the handler's JSON-RPC body and headers, none of the route stage's", async ({ request, baseURL }) => {
    const res = await request.post("/mcp", { headers: { ...MCP_HEADERS, authorization: `Bearer ${DEFAULT_DEMO_API_KEY}` }, data: searchSql(7) });
    expect(res.status()).toBe(200);
    const h = res.headers();
    expect(h["content-type"]).toBe("application/json");
    expect(h["cache-control"]).toBe("no-store");
    expect(h["access-control-allow-origin"]).toBe("*");
    expect(h["access-control-expose-headers"]).toContain("WWW-Authenticate");
    expect(h["ratelimit-policy"]).toContain("active-operations");
    expect(h["ratelimit-limit"]).toMatch(/^\d+$/);
    expect(h["vary"] ?? "").not.toContain("rsc");
    const body = (await res.json()) as { jsonrpc: string; id: number; result: { structuredContent: { results: { title: string; markdown_url: string }[] } } };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 7 });
    expect(body.result.structuredContent.results.map((r) => r.title)).toContain("Intro to SQL");
    expect(body.result.structuredContent.results[0]!.markdown_url.startsWith(`${baseURL}/api/md/`)).toBe(true);
  });

  test("refusals: the bearer challenge, a body over the limit, and the edge guard before either", async ({ request }) => {
    const anonymous = await request.post("/mcp", { headers: MCP_HEADERS, data: searchSql(1) });
    expect(anonymous.status()).toBe(401);
    expect(anonymous.headers()["www-authenticate"]).toMatch(/^Bearer resource_metadata="http:\/\/localhost:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
    expect(await anonymous.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32001 } });

    const huge = await request.post("/mcp", { headers: { ...MCP_HEADERS, authorization: `Bearer ${DEFAULT_DEMO_API_KEY}` }, data: JSON.stringify({ pad: "x".repeat(1024 * 1024 + 1) }) });
    expect(huge.status()).toBe(413);
    expect(await huge.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });

    expect(await rawPost("/mcp", `localhost:${port}`, searchSql(1))).toBe(200);
    expect(await rawPost("/mcp", "bad host", searchSql(1))).toBe(400);
  });

  test("the transport's own answers and the other methods are unchanged", async ({ request }) => {
    const notAcceptable = await request.post("/mcp", { headers: { ...MCP_HEADERS, accept: "application/json", authorization: `Bearer ${DEFAULT_DEMO_API_KEY}` }, data: searchSql(1) });
    expect(notAcceptable.status()).toBe(406);
    const options = await request.fetch("/mcp", { method: "OPTIONS" });
    expect(options.status()).toBe(204);
    expect(options.headers()["access-control-allow-methods"]).toBe("POST, GET, DELETE, OPTIONS");
    const get = await request.get("/mcp", { headers: { authorization: `Bearer ${DEFAULT_DEMO_API_KEY}` } });
    expect(get.status()).toBe(405);
    expect(get.headers()["allow"]).toBe("POST, OPTIONS");
  });
});
