import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkOutboundUrl, safeRequest, SafeFetchError } from "./safe-fetch";

const off = { allowLoopbackForTests: false };
const on = { allowLoopbackForTests: true };
const fakeDns = (...addresses: string[]) => (async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))) as never;

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://169.254.169.254/" });
      res.end();
    } else if (req.url === "/slow") {
      setTimeout(() => res.end("late"), 2_000);
    } else if (req.url === "/big") {
      res.end("x".repeat(100_000));
    } else {
      res.end("ok");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const request = (url: string, extra: Partial<Parameters<typeof safeRequest>[0]> = {}) => safeRequest({ url, timeoutMs: 1_000, maxBytes: 1024, policy: on, ...extra });

describe("the shared SSRF guard (webhooks and CIMD)", () => {
  it.each([
    ["plain http", "http://hooks.example.com/in", "scheme"],
    ["credentials", "https://u:p@hooks.example.com/in", "credentials"],
    ["a private IP literal", "https://10.1.2.3/in", "special_address"],
    ["the metadata service", "https://169.254.169.254/latest", "special_address"],
    ["loopback without the test switch", "https://127.0.0.1/in", "special_address"],
    ["http loopback without the test switch", "http://127.0.0.1:9/in", "scheme"],
    ["garbage", "::::", "invalid_url"],
  ])("refuses %s before any connection", async (_name, url, reason) => {
    await expect(safeRequest({ url, timeoutMs: 1000, maxBytes: 10, policy: off })).rejects.toMatchObject({ reason });
  });

  it.each(["10.0.0.5", "127.0.0.1", "169.254.169.254", "::1", "fd00::1", "::ffff:192.168.0.1", "100.64.0.1"])("refuses a host resolving to %s", async (address) => {
    await expect(safeRequest({ url: "https://hooks.example.com/in", timeoutMs: 1000, maxBytes: 10, policy: off, resolve: fakeDns(address) })).rejects.toMatchObject({ reason: "special_address" });
  });

  it("refuses when any DNS answer is private (no choosing the public one)", async () => {
    await expect(safeRequest({ url: "https://hooks.example.com/in", timeoutMs: 1000, maxBytes: 10, policy: off, resolve: fakeDns("93.184.216.34", "10.0.0.1") })).rejects.toThrow(SafeFetchError);
  });

  it("does not follow redirects: the 3xx is the answer", async () => {
    expect((await request(`${base}/redirect`)).status).toBe(302);
  });

  it("has a hard deadline and a size cap", async () => {
    await expect(request(`${base}/slow`, { timeoutMs: 200 })).rejects.toMatchObject({ reason: "timeout" });
    const big = await request(`${base}/big`, { maxBytes: 1000 });
    expect(big.truncated).toBe(true);
    expect(big.body).toHaveLength(1000);
    expect(await request(`${base}/ok`)).toMatchObject({ status: 200, body: "ok", truncated: false });
  });

  it("the loopback test switch admits loopback only", () => {
    expect(checkOutboundUrl("http://127.0.0.1:4000/in", on).port).toBe("4000");
    expect(() => checkOutboundUrl("http://10.0.0.1:4000/in", on)).toThrow(/https/);
    expect(() => checkOutboundUrl("https://192.168.0.1/in", on)).toThrow(/private/);
  });
});
