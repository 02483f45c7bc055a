// The OAuth front through the production entry (server/start.mjs, the suite's server): the route
// table's `front` paths and methods are answered before Next's pipeline, and every other request
// still reaches Next. The observable is Next's own: every response Next's app router sends carries
// `Vary: rsc, next-router-state-tree, …` (its client-router cache key), which our handlers never
// set; a response without it was not sent by Next (docs/decisions.md, "The OAuth front").
import { connect } from "node:net";
import { expect, test, type APIResponse } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { DEFAULT_DEMO_API_KEY } from "../../lib/startup/seed/demo-credentials";
import { endlessChunkedPost } from "../helpers/partial-post";

const { hostname, port } = new URL(baseURL);
const byNext = (res: APIResponse) => /\brsc\b/.test(res.headers()["vary"] ?? "");

test.describe("the OAuth front", () => {
  test("answers token, introspection, revocation and UserInfo itself, with the table's handlers", async ({ request }) => {
    const token = await request.post("/api/oauth/token", { form: { grant_type: "client_credentials" } });
    expect(token.status()).toBe(400);
    expect(await token.json()).toMatchObject({ error: "unsupported_grant_type" });
    expect(token.headers()["cache-control"]).toBe("no-store");
    expect(token.headers()["access-control-allow-origin"]).toBe("*");
    expect(byNext(token)).toBe(false);

    for (const path of ["/api/oauth/introspect", "/api/oauth/revoke"]) {
      const res = await request.post(path, { form: { token: "nope" } });
      expect(res.status(), path).toBe(400);
      expect(await res.json(), path).toMatchObject({ error: "invalid_request" });
      expect(byNext(res), path).toBe(false);
    }

    for (const method of ["GET", "POST"] as const) {
      const userinfo = await request.fetch("/api/oauth/userinfo", { method, headers: { authorization: "Bearer not-a-token" } });
      expect(userinfo.status(), method).toBe(401);
      expect(userinfo.headers()["www-authenticate"], method).toContain("invalid_token");
      expect(byNext(userinfo), method).toBe(false);
    }
  });

  test("answers POST of the Admin API and MCP itself: no wait for the body of a request it refuses, next.config's headers, Next's compression", async () => {
    // Through Next's proxy, Next read the whole body of a request before any answer (proxy.ts); the
    // front's handlers refuse a request without credentials before its body has arrived.
    for (const path of ["/admin/graphql", "/mcp"]) {
      const answer = await rawRequest(
        `POST ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"x":`,
        /\r\n\r\n/,
      );
      expect(answer, path).toMatch(/^HTTP\/1\.1 401/);
      expect(answer.toLowerCase(), path).not.toMatch(/^vary:.*\brsc\b/m);
      // next.config.mjs's headers for /admin/:path*, as Next sets them.
      if (path === "/admin/graphql") expect(answer, path).toMatch(/^x-frame-options: DENY\r$/im);
    }
    // A response of 1 KB or more goes out compressed in the coding the client prefers.
    const key = { "x-service-api-key": DEFAULT_DEMO_API_KEY };
    const query = JSON.stringify({ query: "{ courses(first: 50) { nodes { id slug title summary status price currency } } }" });
    for (const coding of ["gzip", "deflate"]) {
      const res = await fetch(`${baseURL}/admin/graphql`, { method: "POST", headers: { ...key, "content-type": "application/json", "accept-encoding": coding }, body: query });
      expect(res.status, coding).toBe(200);
      expect(res.headers.get("content-encoding"), coding).toBe(coding);
      expect(res.headers.get("vary") ?? "", coding).toContain("Accept-Encoding");
      expect(((await res.json()) as { data: { courses: { nodes: unknown[] } } }).data.courses.nodes.length, coding).toBeGreaterThan(0);
    }
  });

  test("runs the edge guard of the table's handler (a malformed Host is a 400)", async () => {
    const answer = await rawRequest(`POST /api/oauth/token HTTP/1.1\r\nHost: a b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain("The Host header is not a valid host name");
    expect(answer.toLowerCase()).not.toMatch(/^vary:.*\brsc\b/m);
  });

  test("refuses a chunked body past the limit with 413 and closes the connection", async () => {
    // A body that never ends: the answer can only come from reading stopping at the limit.
    const answer = await endlessChunkedPost(
      Number(port),
      hostname,
      `POST /api/oauth/token HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`,
      0x4000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  test("leaves every other path and method to Next", async ({ request }) => {
    // The same paths with a method the table does not mark, a trailing slash, an escape, a longer path.
    const preflight = await request.fetch("/api/oauth/token", { method: "OPTIONS" });
    expect(preflight.status()).toBe(204);
    expect(byNext(preflight)).toBe(true);
    const get = await request.get("/api/oauth/token");
    expect(get.status()).toBe(405);
    expect(byNext(get)).toBe(true);
    const slash = await request.post("/api/oauth/token/", { maxRedirects: 0 });
    expect(slash.status()).toBe(308);
    const escaped = await request.post("/api/oauth/%74oken", { form: { grant_type: "client_credentials" } });
    expect(escaped.status()).toBe(404);
    expect(byNext(escaped)).toBe(true);
    // Routes without front methods, and pages.
    for (const path of ["/api/oauth/jwks", "/api/health", "/.well-known/openid-configuration"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      expect(byNext(res), path).toBe(true);
    }
    const page = await request.get("/login");
    expect(page.status()).toBe(200);
    expect(page.headers()["content-type"]).toContain("text/html");
  });
});

/** Sends raw bytes; the answer when the server closes, or as soon as it matches `until` (what came within 5 s otherwise). */
function rawRequest(text: string, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let out = "";
    if (until) setTimeout(() => (socket.destroy(), resolve(out)), 5_000);
    socket.on("data", (d) => {
      out += d;
      if (until?.test(out)) {
        socket.destroy();
        resolve(out);
      }
    });
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
    socket.write(text);
  });
}
