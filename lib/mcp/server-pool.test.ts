import { describe, expect, it } from "vitest";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { acquireMcpServer, directMcpTransport, MAX_DIRECT_SERVERS, MAX_IDLE_SERVERS, mcpServerPoolStats, releaseMcpServer } from "./server-pool";

const demo = { origin: "https://demo.example", schoolName: "Demo" };

describe("McpServer pool", () => {
  it("gives a released server back to the next request of the same shape, never to another shape", () => {
    const a = acquireMcpServer(demo);
    releaseMcpServer(demo, a);
    expect(acquireMcpServer({ ...demo, schoolName: "Renamed" })).not.toBe(a);
    expect(acquireMcpServer({ ...demo, origin: "https://other.example" })).not.toBe(a);
    expect(acquireMcpServer(demo)).toBe(a);
    expect(acquireMcpServer(demo)).not.toBe(a);
  });

  it("keeps a server that is still connected out of the pool", async () => {
    const server = acquireMcpServer(demo);
    await server.connect(new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
    const before = mcpServerPoolStats().idle;
    releaseMcpServer(demo, server);
    expect(mcpServerPoolStats().idle).toBe(before);
    expect(acquireMcpServer(demo)).not.toBe(server);
    await server.close();
  });

  it("holds at most MAX_IDLE_SERVERS, dropping the least recently used shape first", () => {
    const shapes = Array.from({ length: MAX_IDLE_SERVERS + 2 }, (_, i) => ({ origin: `https://s${i}.example`, schoolName: `S${i}` }));
    const servers = shapes.map((s) => acquireMcpServer(s));
    shapes.forEach((s, i) => releaseMcpServer(s, servers[i]!));
    expect(mcpServerPoolStats().idle).toBe(MAX_IDLE_SERVERS);
    expect(acquireMcpServer(shapes[0]!)).not.toBe(servers[0]);
    expect(acquireMcpServer(shapes.at(-1)!)).toBe(servers.at(-1));
  });
});

describe("the direct path's servers", () => {
  it("keep one connected server per shape, and let the least recently used go beyond MAX_DIRECT_SERVERS", async () => {
    const a = await directMcpTransport(demo);
    expect(await directMcpTransport(demo)).toBe(a);
    expect(await directMcpTransport({ ...demo, schoolName: "Renamed" })).not.toBe(a);
    const others = Array.from({ length: MAX_DIRECT_SERVERS - 1 }, (_, i) => ({ origin: `https://d${i}.example`, schoolName: `D${i}` }));
    for (const s of others) await directMcpTransport(s);
    // demo was used before "Renamed" and the others: it is the one let go.
    expect(await directMcpTransport({ ...demo, schoolName: "Renamed" })).toBe(await directMcpTransport({ ...demo, schoolName: "Renamed" }));
    expect(await directMcpTransport(demo)).not.toBe(a);
  });
});
