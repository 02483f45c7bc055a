import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, jwtVerify, type JWK } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { resetEnvCache } from "@/lib/env";
import { advance, setNow } from "@/lib/clock";
import { CIMD_CACHE_LIMIT, CIMD_FAILURE_TTL_SECONDS, cimdCacheSize, clearCimdCache, fetchClientMetadata } from "@/lib/oauth/cimd";
import { cimdPolicy } from "@/lib/oauth/clients";
import { startAppServer, type AppServer } from "../../helpers/app-server";
import { authorizeUrl, exchangeCode, getCode, signIn } from "./helpers";

// The metadata documents are served by a local HTTP server; OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS
// (accepted only with NODE_ENV=test) lets http://127.0.0.1 stand in for an https origin.
let app: AppServer;
let meta: Server;
let origin: string;
let cookie: string;
const hits = new Map<string, number>();
type Behaviour = { status?: number; body?: string; headers?: Record<string, string>; delayMs?: number };
const routes = new Map<string, Behaviour>();

const doc = (path: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ client_id: `${origin}${path}`, client_name: "Agent Smith", redirect_uris: ["http://127.0.0.1/callback", "https://agent.example/cb"], ...extra });

function serve(path: string, b: Behaviour) {
  routes.set(path, b);
  return `${origin}${path}`;
}

beforeAll(async () => {
  meta = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    const b = routes.get(req.url!) ?? { status: 404, body: "{}" };
    setTimeout(() => {
      res.writeHead(b.status ?? 200, { "content-type": "application/json", ...b.headers });
      res.end(b.body ?? "");
    }, b.delayMs ?? 0);
  });
  await new Promise<void>((r) => meta.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(meta.address() as AddressInfo).port}`;
  process.env.OAUTH_CIMD_ALLOWED_HOSTS = "127.0.0.1";
  process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS = "1";
  resetEnvCache();
  await seedDemo({ prisma: db() });
  app = await startAppServer({ host: "demo.localhost" });
  cookie = await signIn(app, "student@schoolhouse.test");
});
afterAll(async () => {
  process.env.OAUTH_CIMD_ALLOWED_HOSTS = "none"; // the suites' setting (vitest.config.ts): unset means "*"
  delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS;
  resetEnvCache();
  await app.close();
  meta.closeAllConnections();
  await new Promise((r) => meta.close(r));
});
afterEach(() => clearCimdCache());

const start = (clientId: string, redirect_uri = "http://127.0.0.1:7777/callback") =>
  app.fetch(authorizeUrl({ client_id: clientId, redirect_uri }), { headers: { cookie } });

async function expectErrorPage(res: Response, text: RegExp) {
  expect(res.status).toBe(400);
  expect(res.headers.get("location")).toBeNull();
  expect(await res.text()).toMatch(text);
}

describe("Client ID Metadata Documents (issue 12: RFC 9700 and the draft)", () => {
  it("an anonymous request with a bad parameter shows an error page instead of redirecting to the document's URI", async () => {
    const path = "/phish.json";
    const clientId = serve(path, { body: doc(path, { redirect_uris: ["https://evil.example/phish"] }) });
    const url = authorizeUrl({ client_id: clientId, redirect_uri: "https://evil.example/phish", code_challenge_method: "plain" });
    const res = await app.fetch(url);
    await expectErrorPage(res, /code_challenge_method must be S256/);
  });

  it("prompt=none without a session shows the login_required error as a page, not a redirect to the document's URI (12a)", async () => {
    const path = "/silent.json";
    const clientId = serve(path, { body: doc(path, { redirect_uris: ["https://evil.example/phish"] }) });
    const res = await app.fetch(authorizeUrl({ client_id: clientId, redirect_uri: "https://evil.example/phish", prompt: "none" }));
    await expectErrorPage(res, /must sign in/);
  });

  it.each(["javascript:alert(1)//", "data:text/html,hi", "http://evil.example/cb", "ftp://x.example/cb"])("refuses a document declaring the redirect URI %s", async (uri) => {
    const path = `/scheme-${encodeURIComponent(uri).slice(0, 12)}.json`;
    const clientId = serve(path, { body: doc(path, { redirect_uris: [uri] }) });
    await expectErrorPage(await start(clientId, uri), /redirect_uris must be https URLs or http on a loopback address/);
  });
});

describe("Client ID Metadata Documents", () => {
  it("a valid document: authorize, consent, code and token exchange with the URL as client_id", async () => {
    const path = "/ok.json";
    const clientId = serve(path, { body: doc(path), headers: { "cache-control": "max-age=60" } });
    const { code } = await getCode(app, cookie, { client_id: clientId, redirect_uri: "http://127.0.0.1:7777/callback" });
    const res = await exchangeCode(app, code, { client_id: clientId, redirect_uri: "http://127.0.0.1:7777/callback" });
    expect(res.status).toBe(200);
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { clientId } });
    expect(grant.clientId).toBe(clientId);
    // Cached for the document's max-age: three uses, one fetch.
    expect(hits.get(path)).toBe(1);
  });

  it("a document's id_token_signed_response_alg ES256: its ID tokens are ES256, signed by a published key", async () => {
    const path = "/es256.json";
    const clientId = serve(path, { body: doc(path, { id_token_signed_response_alg: "ES256" }) });
    const { code } = await getCode(app, cookie, { client_id: clientId, redirect_uri: "http://127.0.0.1:7777/callback", scope: "openid" });
    const res = await exchangeCode(app, code, { client_id: clientId, redirect_uri: "http://127.0.0.1:7777/callback" });
    const { id_token } = (await res.json()) as { id_token: string };
    const { keys } = (await (await app.fetch("/api/oauth/jwks")).json()) as { keys: JWK[] };
    const { payload, protectedHeader } = await jwtVerify(id_token, createLocalJWKSet({ keys }), { audience: clientId, algorithms: ["ES256"] });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload.azp).toBe(clientId);
  });

  it("redirect_uris match exactly (loopback any port)", async () => {
    const path = "/exact.json";
    const clientId = serve(path, { body: doc(path) });
    expect((await start(clientId, "https://agent.example/cb")).status).toBe(303);
    await expectErrorPage(await start(clientId, "https://agent.example/cb/"), /Invalid redirect URI/);
  });

  it("without caching headers it is cached for the default lifetime", async () => {
    const path = "/plain.json";
    const clientId = serve(path, { body: doc(path) });
    await start(clientId);
    await start(clientId);
    expect(hits.get(path)).toBe(1);
  });

  it("no-store is never cached", async () => {
    const path = "/nostore.json";
    const clientId = serve(path, { body: doc(path), headers: { "cache-control": "no-store" } });
    await start(clientId);
    await start(clientId);
    expect(hits.get(path)).toBe(2);
  });

  it("a failing document is fetched once per 30 seconds, then again", async () => {
    setNow(Date.parse("2026-11-23T08:00:00Z"));
    try {
      const path = "/flaky.json";
      const clientId = serve(path, { status: 500, body: "{}" });
      await expectErrorPage(await start(clientId), /HTTP 500/);
      // Fixed at its host meanwhile, but the failure is remembered for CIMD_FAILURE_TTL_SECONDS.
      serve(path, { body: doc(path), headers: { "cache-control": "max-age=600" } });
      advance((CIMD_FAILURE_TTL_SECONDS - 1) * 1000);
      await expectErrorPage(await start(clientId), /HTTP 500/);
      await expectErrorPage(await start(clientId), /HTTP 500/);
      expect(hits.get(path)).toBe(1);
      advance(1000);
      expect((await start(clientId)).status).toBe(303);
      expect(hits.get(path)).toBe(2);
    } finally {
      setNow(null);
    }
  });

  it("an unreachable host and an invalid document are remembered as failures too", async () => {
    const path = "/invalid.json";
    const clientId = serve(path, { body: doc(path, { redirect_uris: ["javascript:alert(1)"] }) });
    for (let i = 0; i < 3; i++) await expectErrorPage(await start(clientId), /redirect_uris must be https/);
    expect(hits.get(path)).toBe(1);
    // A port nobody listens on: connection refused, asked once.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const gone = `http://127.0.0.1:${port}/gone.json`;
    await expectErrorPage(await start(gone), /could not be fetched/);
    const started = Date.now();
    await expectErrorPage(await start(gone), /could not be fetched/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("identical concurrent authorize requests share one fetch", async () => {
    const path = "/busy.json";
    // no-store: nothing is cached, so only coalescing can explain a single fetch.
    const clientId = serve(path, { body: doc(path), headers: { "cache-control": "no-store" }, delayMs: 300 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => start(clientId)));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(303));
    expect(hits.get(path)).toBe(1);
    // Settled: the next request fetches again (no-store is honoured).
    await start(clientId);
    expect(hits.get(path)).toBe(2);
  });

  it("identical concurrent requests for a failing document share one fetch and one answer", async () => {
    const path = "/busy-failing.json";
    const clientId = serve(path, { status: 503, body: "{}", delayMs: 300 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => start(clientId)));
    for (const res of answers) await expectErrorPage(res, /HTTP 503/);
    expect(hits.get(path)).toBe(1);
  });

  it("the cache is bounded: documents and failures beyond CIMD_CACHE_LIMIT evict the least recently used", async () => {
    const first = serve("/bounded-0.json", { body: doc("/bounded-0.json") });
    await start(first);
    for (let i = 1; i <= CIMD_CACHE_LIMIT; i++) {
      const path = `/bounded-${i}.json`;
      // Half documents, half failures: both count against the bound.
      serve(path, i % 2 ? { body: doc(path) } : { status: 404, body: "{}" });
      await fetchClientMetadata({ clientId: `${origin}${path}`, policy: cimdPolicy() }).catch(() => {});
    }
    expect(cimdCacheSize()).toBe(CIMD_CACHE_LIMIT);
    await start(first);
    expect(hits.get("/bounded-0.json")).toBe(2);
  }, 60_000);

  it.each([
    ["a redirect", { status: 302, headers: { location: "https://elsewhere.example/" } }, /redirects/],
    ["more than 5 KB", { body: JSON.stringify({ pad: "x".repeat(6000) }) }, /5 KB/],
    ["more than 5 KB without content-length", { body: "x".repeat(6000), headers: { "transfer-encoding": "chunked" } }, /5 KB/],
    ["a non-JSON content type", { body: "{}", headers: { "content-type": "text/html" } }, /not JSON/],
  ])("refuses %s", async (_name, behaviour, message) => {
    const path = `/bad-${Math.random().toString(36).slice(2)}.json`;
    await expectErrorPage(await start(serve(path, behaviour as Behaviour)), message);
  });

  it("gives up after 3 seconds", async () => {
    const path = "/slow.json";
    const clientId = serve(path, { body: doc(path), delayMs: 6_000 });
    const started = Date.now();
    await expectErrorPage(await start(clientId), /3 seconds/);
    expect(Date.now() - started).toBeLessThan(5_500);
  }, 15_000);

  it.each([
    ["client_id not equal to the URL", (p: string) => doc(p, { client_id: `${origin}/other.json` }), /does not equal/],
    ["a client_secret", (p: string) => doc(p, { client_secret: "s3cret" }), /client_secret/],
    ["token_endpoint_auth_method other than none", (p: string) => doc(p, { token_endpoint_auth_method: "client_secret_post" }), /token_endpoint_auth_method/],
  ])("refuses a document with %s", async (_name, body, message) => {
    const path = `/doc-${Math.random().toString(36).slice(2)}.json`;
    await expectErrorPage(await start(serve(path, { body: body(path) })), message);
  });

  it("refuses hosts off the allowlist and plain http without the test switch", async () => {
    const path = "/ok2.json";
    const clientId = serve(path, { body: doc(path) });
    process.env.OAUTH_CIMD_ALLOWED_HOSTS = "agent.example";
    resetEnvCache();
    await expectErrorPage(await start(clientId), /not accepted/);
    process.env.OAUTH_CIMD_ALLOWED_HOSTS = "127.0.0.1";
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS = "0";
    resetEnvCache();
    await expectErrorPage(await start(clientId), /https/);
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS = "1";
    resetEnvCache();
    expect(hits.get(path)).toBeUndefined();
  });

  it("a cached document does not outlive the allowlist: narrowing OAUTH_CIMD_ALLOWED_HOSTS refuses it at once", async () => {
    const path = "/cached-then-banned.json";
    const clientId = serve(path, { body: doc(path), headers: { "cache-control": "max-age=600" } });
    expect((await start(clientId)).status).toBe(303);
    process.env.OAUTH_CIMD_ALLOWED_HOSTS = "agent.example";
    resetEnvCache();
    try {
      await expectErrorPage(await start(clientId), /not accepted/);
    } finally {
      process.env.OAUTH_CIMD_ALLOWED_HOSTS = "127.0.0.1";
      resetEnvCache();
    }
    expect((await start(clientId)).status).toBe(303);
    expect(hits.get(path)).toBe(1);
  });

  it("the service documentation states the caching rules when CIMD is enabled", async () => {
    const docs = await (await app.fetch("/oauth/docs")).text();
    expect(docs).toContain("Client ID Metadata Document on a host this server allows");
    expect(docs).toContain("a document that failed is fetched again after 30 seconds");
    expect(docs).not.toContain("not accepted by this server");
  });

  it("a CIMD client at the token endpoint with a secret is invalid_client", async () => {
    const path = "/tok.json";
    const clientId = serve(path, { body: doc(path), headers: { "cache-control": "max-age=60" } });
    const res = await app.fetch("/api/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x", client_id: clientId, client_secret: "x" }),
    });
    expect(res.status).toBe(401);
  });
});
