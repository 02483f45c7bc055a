import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";

/**
 * MCP's tools spec: an unknown tool is a protocol error (JSON-RPC -32602), not a tool result. The
 * SDK's McpServer answers its own "Tool … not found" as a result with isError, so the name is
 * checked as the message enters the server, through the SDK's public Transport interface
 * (`onmessage` in, `send` out) that every transport implements. The direct path
 * (lib/mcp/direct-call.ts) never takes an unknown tool. Malformed params (no string name) are left
 * to the SDK's request schema, which refuses them with -32602 itself.
 */
export function refuseUnknownTools(transport: Transport, isKnown: (name: string) => boolean): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("mcp: refuseUnknownTools runs after server.connect(transport)");
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === "tools/call") {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      // Not an McpError: its message would carry an "MCP error -32602: " prefix on the wire.
      if (typeof name === "string" && !isKnown(name)) {
        void transport.send({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: `Unknown tool: ${name}` } });
        return;
      }
    }
    deliver.call(transport, message, extra);
  };
}
