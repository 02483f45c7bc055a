import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildSchema, graphql } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alternate, alternatingRatios, withCpu } from "./alternating";
import { runSegment } from "./load";
import { WORKLOADS, type WorkloadContext } from "./workloads";

// The workloads' own logic (probing, fresh users, key leases, refresh-token rotation) against a
// small stand-in server that follows the spec's contracts and fails loudly on misuse: a refresh
// token used twice, a key with two operations in flight, a repeated email.
const schema = buildSchema(`
  input CreateSubscriptionInput { email: String!, name: String, planId: String! }
  type Subscription { id: String!, state: String! }
  type Payload { errors: [String!]!, subscription: Subscription }
  type Course { id: String!, title: String!, price: Float, lecturers: [String!]! }
  type CourseConnection { nodes: [Course!]! }
  type Query { courses(first: Int): CourseConnection! }
  type Mutation { createSubscription(input: CreateSubscriptionInput!): Payload! }
`);

const misuse: string[] = [];
const emails = new Set<string>();
const buyers = new Set<string>();
const inFlight = new Map<string, number>();
const liveTokens = new Set<string>();
let tokenSeq = 0;
let refreshes = 0;
let codesRedeemed = 0;
let introspections = 0;
let llmsFull: string | null = null;

const root = {
  courses: () => ({ nodes: [{ id: "c1", title: "Intro to SQL", price: 49, lecturers: [] }] }),
  createSubscription: ({ input }: { input: { email: string } }) => {
    if (emails.has(input.email)) return { errors: ["User already subscribed to this plan"], subscription: null };
    emails.add(input.email);
    return { errors: [], subscription: { id: `s${emails.size}`, state: "active" } };
  },
};

let server: Server;
let ctx: WorkloadContext;

beforeAll(async () => {
  const tokens = Array.from({ length: 12 }, () => `rt-${tokenSeq++}`);
  const plainTokens = Array.from({ length: 12 }, () => `prt-${tokenSeq++}`);
  // More codes than a 1 s segment against this stand-in can redeem (a fast local server).
  const codes = Array.from({ length: 50_000 }, () => `code-${tokenSeq++}`);
  const plainCodes = Array.from({ length: 50_000 }, () => `pcode-${tokenSeq++}`);
  [...tokens, ...plainTokens, ...codes, ...plainCodes].forEach((t) => liveTokens.add(t));
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString();
    if (req.url === "/api/md/courses/intro-to-sql") {
      res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end("---\ntitle: Intro to SQL\n---\n");
    } else if (req.url === "/llms-full.txt") {
      if (llmsFull === null) res.writeHead(404).end("not found");
      else res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(llmsFull);
    } else if (req.url === "/admin/graphql" && req.method === "POST") {
      const key = String(req.headers["x-service-api-key"]);
      const n = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, n);
      if (n > 1) misuse.push(`key ${key} had ${n} operations in flight`);
      await new Promise((r) => setTimeout(r, 2));
      const { query } = JSON.parse(body) as { query: string };
      const result = await graphql({ schema, source: query, rootValue: root });
      inFlight.set(key, inFlight.get(key)! - 1);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (key.includes("benchon") || key.includes("benchoff")) headers["ratelimit-policy"] = '"active-operations";q=10';
      res.writeHead(200, headers).end(JSON.stringify(result));
    } else if (req.url === "/api/oauth/token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      // Grants with openid (rt-, code-) answer with an ID token, the others (prt-, pcode-) without.
      const presented = form.get("grant_type") === "authorization_code" ? form.get("code")! : form.get("refresh_token")!;
      if (!liveTokens.delete(presented)) {
        misuse.push(`${form.get("grant_type")} ${presented} replayed`);
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_grant" }));
        return;
      }
      if (form.get("grant_type") === "authorization_code") codesRedeemed++;
      else refreshes++;
      const openid = !/^p/.test(presented);
      const next = `${openid ? "" : "p"}rt-${tokenSeq++}`;
      liveTokens.add(next);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: `at-${tokenSeq}`, refresh_token: next, ...(openid ? { id_token: "x.y.z" } : {}) }));
    } else if (req.url === "/api/checkout" && req.method === "POST") {
      // The storefront's rules a checkout start follows: a same-origin form post, a new buyer each time.
      const form = new URLSearchParams(body);
      const email = form.get("email") ?? "";
      if (req.headers["sec-fetch-site"] !== "same-origin" || !form.get("plan")) misuse.push(`checkout refused: ${body}`);
      if (buyers.has(email)) misuse.push(`checkout buyer ${email} repeated`);
      buyers.add(email);
      // Every tenth answer is a refusal page (200), which must not count as a started checkout.
      if (buyers.size % 10 === 0) res.writeHead(200, { "content-type": "text/html" }).end("<p role=alert>refused</p>");
      else res.writeHead(303, { location: `/checkout/test/cs_${buyers.size}` }).end();
    } else if (req.url === "/api/oauth/introspect" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const active = form.get("token") === "at-live" && form.get("client_id") === "demo-public-app";
      introspections++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(active ? { active: true, client_id: "demo-public-app" } : { active: false }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  ctx = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    creds: {
      enforcedKeys: Array.from({ length: 8 }, (_, i) => `sh_benchon0${i}_secret-secret-secret-secret`),
      countedKeys: Array.from({ length: 8 }, (_, i) => `sh_benchoff0${i}_secret-secret-secret-secret`),
      refreshTokens: tokens,
      plainRefreshTokens: plainTokens,
      codes,
      plainCodes,
      codeVerifier: "v".repeat(43),
      codeRedirectUri: "http://127.0.0.1/callback",
      oauthClientId: "demo-public-app",
      accessTokens: ["at-live"],
    },
    runId: "test",
    connections: 4,
  };
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const workload = (id: string) => WORKLOADS.find((w) => w.id === id)!;

async function measure(id: string, segments = 1) {
  const prepared = await workload(id).prepare(ctx);
  if ("unavailable" in prepared) throw new Error(prepared.unavailable);
  const results = [];
  for (let i = 0; i < segments; i++) results.push(await runSegment({ origin: ctx.origin, spec: prepared.spec, connections: 4, durationSec: 1 }));
  return results;
}

describe("workload probes", () => {
  it("report a missing endpoint as unavailable with the status", async () => {
    expect(await workload("llms-full").prepare(ctx)).toEqual({ unavailable: "GET /llms-full.txt → 404 (not in this build)" });
    expect(await workload("html-course").prepare(ctx)).toEqual({ unavailable: "GET /courses/intro-to-sql → 404 (not in this build)" });
  });

  it("measure llms-full.txt as the whole bundle with the demo course or as the index linking its courses part, nothing else", async () => {
    const llms = workload("llms-full");
    try {
      llmsFull = "# Demo\n\n---\n\n# Intro to SQL\n";
      expect(await llms.prepare(ctx)).toHaveProperty("spec");
      for (const part of ["courses", "courses-2"]) {
        llmsFull = `# Demo\n\n## Parts\n\n- [Pages](https://demo.test/llms-full/pages.txt): 4 documents\n- [Courses](https://demo.test/llms-full/${part}.txt): 250 documents\n`;
        expect(await llms.prepare(ctx), part).toHaveProperty("spec");
      }
      for (const body of ["# Demo\n\nno courses here\n", "# Demo\n\n- [Pages](https://demo.test/llms-full/pages.txt): 4 documents\n"]) {
        llmsFull = body;
        expect(await llms.prepare(ctx)).toEqual({
          unavailable: "GET /llms-full.txt: neither the whole bundle with the demo course nor an index linking its courses part",
        });
      }
    } finally {
      llmsFull = null;
    }
  });

  it("select every scalar field of the courses nodes by introspection", async () => {
    const p = await workload("courses-query").prepare(ctx);
    expect("spec" in p && p.note).toBe("fields: id, title, price, lecturers");
  });
});

describe("measuring", () => {
  it("counts good responses and their latencies", async () => {
    const [a] = await measure("md-course");
    expect(a!.good).toBeGreaterThan(0);
    expect(a!.bad + a!.non2xx + a!.errors).toBe(0);
    expect(a!.p50Ms).toBeGreaterThan(0);
  });

  it("creates a fresh user with every createSubscription", async () => {
    const segments = await measure("create-subscription");
    for (const s of segments) expect(s.bad + s.non2xx).toBe(0);
    expect(emails.size).toBeGreaterThan(10);
  });

  it("counts a form post's 303 as its answer and anything else as a failure, a new buyer each time", async () => {
    const segments = await measure("checkout-start");
    const answered = segments.reduce((n, s) => n + s.good, 0);
    const refused = segments.reduce((n, s) => n + s.non2xx, 0);
    expect(answered).toBeGreaterThan(10);
    expect(refused).toBeGreaterThan(0);
    expect(segments.reduce((n, s) => n + (s.statusCodes["200"] ?? 0), 0)).toBe(refused);
    expect(misuse.filter((m) => m.startsWith("checkout"))).toEqual([]);
  });

  it("never has two operations in flight on one key, across segments", async () => {
    for (const s of await measure("limiter-on", 2)) expect(s.bad).toBe(0);
    await measure("courses-query");
    expect(misuse).toEqual([]);
  });

  it("rotates refresh tokens without ever replaying one, across segments, with and without openid", async () => {
    for (const id of ["token-refresh", "token-refresh-no-openid"]) {
      const before = refreshes;
      const segments = await measure(id, 2);
      for (const s of segments) expect(s.bad + s.non2xx).toBe(0);
      expect(refreshes - before).toBeGreaterThan(10);
    }
    expect(misuse).toEqual([]);
  }, 20_000);

  it("alternates the two refresh arms in one place (head to head) on their own pools, never replaying or running dry", async () => {
    // Fresh chains: the pools above have rotated. Enough for 5 segments that each strand one per connection.
    const fresh = (prefix: string) => Array.from({ length: 4 * 6 }, () => `${prefix}-${tokenSeq++}`);
    const creds = { ...ctx.creds, refreshTokens: fresh("rt"), plainRefreshTokens: fresh("prt") };
    [...creds.refreshTokens, ...creds.plainRefreshTokens].forEach((t) => liveTokens.add(t));
    const arm = async (id: string) => {
      const p = await workload(id).prepare({ ...ctx, creds });
      if ("unavailable" in p) throw new Error(p.unavailable);
      return () => withCpu({ pid: process.pid, dbPids: null }, () => runSegment({ origin: ctx.origin, spec: p.spec, connections: 4, durationSec: 1 }));
    };
    const { a, b } = await alternate({ pairs: 2, a: await arm("token-refresh-no-openid"), b: await arm("token-refresh") });
    for (const s of [...a, ...b]) expect(s.bad + s.non2xx + s.errors, s.badSample).toBe(0);
    const r = alternatingRatios(a, b);
    expect(r.pairThroughput).toHaveLength(2);
    expect(Number.isFinite(r.throughput) && Number.isFinite(r.cpuPerRequest)).toBe(true);
    expect(misuse).toEqual([]);
  }, 30_000);

  it("redeems each prepared code once, with and without openid (an ID token exactly with openid)", async () => {
    for (const id of ["token-code", "token-code-no-openid"]) {
      const before = codesRedeemed;
      const [s] = await measure(id);
      expect(s!.bad + s!.non2xx).toBe(0);
      expect(codesRedeemed - before).toBeGreaterThan(10);
    }
    expect(misuse).toEqual([]);
  }, 20_000);

  it("introspects the prepared access token as its own client, and counts only active answers", async () => {
    const before = introspections;
    const [s] = await measure("introspect");
    expect(s!.good).toBeGreaterThan(10);
    expect(s!.bad + s!.non2xx).toBe(0);
    expect(introspections - before).toBeGreaterThan(10);
    // An inactive answer (another token) is not a good response.
    const other = await workload("introspect").prepare({ ...ctx, creds: { ...ctx.creds, accessTokens: ["at-unknown"] } });
    expect("unavailable" in other && other.unavailable).toMatch(/^introspection of the bench's access token: 200/);
  });
});
