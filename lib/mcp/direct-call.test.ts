import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { connectDirect, type DirectToolCall } from "./direct-call";

// The direct path's server stays connected to one DirectTransport, which carries every call at once.
const AUTH = { token: "t", clientId: "c", scopes: [] };
const call = (id: number | string, args: Record<string, unknown> = {}): DirectToolCall => ({
  message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_catalog", arguments: args } },
});

function echoServer(signals: AbortSignal[] = []) {
  const server = new McpServer({ name: "test", version: "1.0.0" });
  server.registerTool("search_catalog", { description: "test", inputSchema: { query: z.string().optional(), wait: z.number().optional() } }, async ({ query, wait }, extra) => {
    signals.push(extra.signal);
    if (wait) await new Promise((r) => setTimeout(r, wait));
    if (query === "fail") throw new Error("the tool failed");
    return { content: [{ type: "text", text: `query ${query ?? ""}` }] };
  });
  return server;
}

describe("DirectTransport", () => {
  it("answers each call with the caller's id, keeps the server connected, and aborts no finished call", async () => {
    const signals: AbortSignal[] = [];
    const server = echoServer(signals);
    const transport = await connectDirect(server);
    for (const id of [1, 1, "a"]) {
      const body = await transport.call(call(id, { query: "sql" }), AUTH);
      // The bytes the SDK's HTTP transport sends: Protocol's response object, key order included.
      expect(body).toBe(JSON.stringify({ result: { content: [{ type: "text", text: "query sql" }] }, jsonrpc: "2.0", id }));
    }
    expect(server.isConnected()).toBe(true);
    expect(transport.inFlight).toBe(0);
    expect(signals.map((s) => s.aborted)).toEqual([false, false, false]);
  });

  it("keeps concurrent calls of one JSON-RPC id apart, whichever finishes first", async () => {
    const transport = await connectDirect(echoServer());
    const answers = await Promise.all([40, 0, 20, 10].map((wait, i) => transport.call(call(7, { query: `q${i}`, wait }), AUTH)));
    expect(answers.map((a) => JSON.parse(a) as { id: number; result: { content: { text: string }[] } }).map((a) => [a.id, a.result.content[0]!.text])).toEqual([
      [7, "query q0"],
      [7, "query q1"],
      [7, "query q2"],
      [7, "query q3"],
    ]);
    expect(transport.inFlight).toBe(0);
  });

  it("answers a tool's error and a refused argument as Protocol does, with the caller's id", async () => {
    const transport = await connectDirect(echoServer());
    const failed = JSON.parse(await transport.call(call("x", { query: "fail" }), AUTH)) as { id: string; result: { isError: boolean; content: { text: string }[] } };
    expect(failed.id).toBe("x");
    expect(failed.result.isError).toBe(true);
    expect(failed.result.content[0]!.text).toContain("the tool failed");
    const refused = JSON.parse(await transport.call(call(3, { query: 5 }), AUTH)) as { id: number; result?: { isError: boolean }; error?: unknown };
    expect(refused.id).toBe(3);
    expect(refused.result?.isError ?? refused.error).toBeTruthy();
    expect(transport.inFlight).toBe(0);
  });
});
