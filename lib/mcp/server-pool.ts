import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LruMap } from "../lru-map";
import { connectDirect, type DirectTransport } from "./direct-call";
import { buildMcpServer, type McpServerShape } from "./server";

// Building an McpServer (18 tools, their zod schemas, the SDK's handlers) cost more CPU than the
// rest of a search_catalog call together (docs/benchmarks.md, "MCP"). Servers hold no caller
// (each message brings its request's context, lib/mcp/context.ts), so they are built once per
// origin and school name and reused. An SDK server takes one transport at a time (connect refuses
// a second), so each request the SDK's HTTP transport answers borrows a server of its own and
// gives it back once closed. The direct path (lib/mcp/direct-call.ts) needs no borrowing: one
// server per shape stays connected to a transport that carries any number of calls at once.

/** Idle servers kept in all (each about a few hundred kB); beyond it the least recently used go. */
export const MAX_IDLE_SERVERS = 16;

const idle = new Map<string, McpServer[]>();
let idleCount = 0;
let built = 0;

const keyOf = (shape: McpServerShape) => `${shape.origin}\n${shape.schoolName}`;

/** An idle server of this shape, or a new one. */
export function acquireMcpServer(shape: McpServerShape): McpServer {
  const key = keyOf(shape);
  const list = idle.get(key);
  const server = list?.pop();
  if (server) {
    idleCount--;
    if (list!.length === 0) idle.delete(key);
    return server;
  }
  built++;
  return buildMcpServer(shape);
}

/** Returns a server that is closed (no transport) and finished every message it was given. */
export function releaseMcpServer(shape: McpServerShape, server: McpServer): void {
  if (server.isConnected()) return;
  const key = keyOf(shape);
  const list = idle.get(key) ?? [];
  idle.delete(key); // re-inserted last: the map's order is least recently used first
  list.push(server);
  idle.set(key, list);
  idleCount++;
  while (idleCount > MAX_IDLE_SERVERS) {
    const [oldestKey, oldest] = idle.entries().next().value!;
    oldest.shift();
    idleCount--;
    if (oldest.length === 0) idle.delete(oldestKey);
  }
}

/** Shapes whose direct-path server is kept; beyond it the least recently used is let go. */
export const MAX_DIRECT_SERVERS = 16;

const direct = new LruMap<string, Promise<DirectTransport>>(MAX_DIRECT_SERVERS);

/**
 * The transport of this shape's direct-path server, connected once. A server let go is not
 * closed: closing aborts the calls still in flight, which would then never answer; it is dropped
 * once they have.
 */
export function directMcpTransport(shape: McpServerShape): Promise<DirectTransport> {
  const key = keyOf(shape);
  let transport = direct.get(key);
  if (!transport) {
    built++;
    transport = connectDirect(buildMcpServer(shape));
    // peek: a failed connection is no use of whatever transport holds the key by then.
    transport.catch(() => direct.peek(key) === transport && direct.delete(key));
    direct.set(key, transport);
  }
  return transport;
}

/** Idle servers now, and servers built since the process started (tests: reuse must not regress to one per request). */
export function mcpServerPoolStats(): { idle: number; built: number } {
  return { idle: idleCount, built };
}
