import { describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { answerToolCall, type DirectToolCall } from "./direct-call";

// The SDK aborts the signal of every request still in flight when its server closes. A direct call
// has answered by then, so its signal must stay unaborted: an abort per call cost a DOMException
// (with a stack trace) on every MCP tool call.
describe("answerToolCall", () => {
  const call = (id: number): DirectToolCall => ({ message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_catalog", arguments: {} } } });

  it("answers, closes the server, and leaves the finished request's signal unaborted", async () => {
    const server = new McpServer({ name: "test", version: "1.0.0" });
    const signals: AbortSignal[] = [];
    server.registerTool("search_catalog", { description: "test" }, async (extra) => {
      signals.push(extra.signal);
      return { content: [{ type: "text", text: "ok" }] };
    });
    for (const id of [1, 2]) {
      const body = JSON.parse(await answerToolCall(server, call(id), { token: "t", clientId: "c", scopes: [] }));
      expect(body).toEqual({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "ok" }] } });
      expect(server.isConnected()).toBe(false);
    }
    expect(signals).toHaveLength(2);
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
  });
});
