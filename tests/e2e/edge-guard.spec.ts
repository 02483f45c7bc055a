// The edge guard (proxy.ts → lib/edge/guard.ts) in front of every route of the real server, and
// CORS on the Admin API from a page on another origin in Chromium (issue 11, findings 5, 6, 10, 11).
import { createServer, request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { DEFAULT_DEMO_API_KEY } from "@/lib/startup/seed/demo-data";
import { baseURL } from "../../playwright.config";

const { hostname, port } = new URL(baseURL);

/** A raw HTTP request: the path goes on the wire exactly as written, the Host header as given. */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: { host: `localhost:${port}`, ...headers }, setHost: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const LEAK = /\bat .+\(|node_modules|\.next\/|\/work\/|prisma|SELECT |ERR_|TypeError|URIError/;

const FORMATS: [string, RegExp, RegExp][] = [
  ["/api/md/courses/", /text\/markdown/, /^---\ntype: "error"\nstatus: 400/],
  ["/courses/", /text\/html/, /<h1>Bad request<\/h1>/],
  ["/posts/", /text\/html/, /<h1>Bad request<\/h1>/],
  ["/api/oauth/token/", /application\/json/, /"error":"invalid_request"/],
  ["/admin/graphql/", /application\/json/, /"errors":\[/],
  ["/api/auth/", /application\/json/, /"error":"bad_request"/],
];

test.describe("malformed percent-encoding is a 400 in the endpoint's format", () => {
  for (const bad of ["%zz", "%E0%A4%A", "%ED%A0%80", "%C0%AE%C0%AE", "x%", "a%00b"]) {
    for (const [prefix, type, body] of FORMATS) {
      test(`${prefix}${bad}`, async () => {
        const r = await raw("GET", `${prefix}${bad}`);
        expect(r.status).toBe(400);
        expect(r.type).toMatch(type);
        expect(r.body).toMatch(body);
        expect(r.body).not.toMatch(LEAK);
      });
    }
  }

  // Under `next start` the proxy sees the query string as Next re-serialized it (WHATWG URL
  // rules): `%zz` arrives as `%25zz`, invalid UTF-8 as U+FFFD, so only NUL is left for the guard
  // to refuse (docs/decisions.md, "One edge guard for every route"). The routes then read an
  // ordinary, well-formed value and answer as they would for any other unknown value.
  for (const bad of ["%zz", "x%", "%FF", "%E0%A4%A", "%ED%A0%80", "%C0%AE%C0%AE"]) {
    test(`a query escape ${bad} reaches the route decoded leniently, never as a 5xx`, async () => {
      const cases: [string, number, RegExp][] = [
        [`/courses?q=${bad}`, 200, /text\/html/],
        [`/api/md/courses?q=${bad}`, 200, /text\/markdown/],
        [`/llms.txt?x=${bad}`, 200, /text\/(plain|markdown)/],
        [`/oauth/authorize?client_id=${bad}&response_type=code`, 400, /text\/html/],
        [`/api/oauth/userinfo?x=${bad}`, 401, /application\/json/],
        [`/admin/graphql?query=${bad}`, 401, /application\/json/],
      ];
      for (const [path, status, type] of cases) {
        const r = await raw("GET", path);
        expect(r.status, path).toBe(status);
        expect(r.type, path).toMatch(type);
        // Content pages may say SELECT (the SQL course); error answers must leak nothing.
        if (r.status >= 400) expect(r.body, path).not.toMatch(LEAK);
      }
    });
  }

  test("NUL in a query string is refused before any route reads it", async () => {
    const r = await raw("GET", "/oauth/authorize?client_id=a%00b&response_type=code");
    expect(r.status).toBe(400);
    expect(r.type).toMatch(/text\/html/);
  });
});

test.describe("an invalid Host is a 400 on every kind of route", () => {
  for (const host of ["[zzz]", "localhost:abc", "a b", "127.0.0.1:99999"]) {
    for (const path of ["/api/auth/session", "/", "/courses", "/api/md/home", "/admin/graphql", "/llms.txt", "/openapi.json", "/api/health"]) {
      test(`Host ${host} ${path}`, async () => {
        const r = await raw("GET", path, { host });
        expect(r.status).toBe(400);
        expect(r.body).not.toMatch(LEAK);
      });
    }
  }
});

// Issue 30, item 2: the route table's skipsProxy endpoints never meet proxy.ts (its matcher leaves
// their exact paths out); their handlers run the same guard, with the same 400s.
test.describe("the endpoints that skip the proxy run the edge guard themselves", () => {
  const cases: [string, string, RegExp][] = [
    ["GET", "/api/bench/baseline", /"error":"bad_request"/],
    ["GET", "/api/health", /"error":"bad_request"/],
    ["HEAD", "/api/health/ready", /^$/],
    ["POST", "/api/oauth/token", /"error":"invalid_request"/],
    ["POST", "/api/oauth/introspect", /"error":"invalid_request"/],
    ["POST", "/api/oauth/revoke", /"error":"invalid_request"/],
    ["GET", "/api/oauth/userinfo", /"error":"invalid_request"/],
    ["GET", "/api/oauth/jwks", /"error":"invalid_request"/],
    ["OPTIONS", "/api/oauth/token", /"error":"invalid_request"/],
  ];
  for (const [method, path, body] of cases) {
    test(`${method} ${path}: an invalid Host and a NUL in the query are 400s`, async () => {
      for (const [target, headers] of [
        [path, { host: "[zzz]" }],
        [`${path}?x=a%00b`, {}],
      ] as const) {
        const r = await raw(method, target, headers);
        expect(r.status, target).toBe(400);
        expect(r.type, target).toMatch(/application\/json/);
        expect(r.body, target).toMatch(body);
        expect(r.body).not.toMatch(LEAK);
      }
    });
  }

  test("and answer as before otherwise", async () => {
    expect((await raw("GET", "/api/bench/baseline")).body).toBe("ok\n");
    expect((await raw("GET", "/api/health")).status).not.toBe(400);
    expect((await raw("GET", "/api/oauth/jwks")).type).toMatch(/application\/(jwk-set\+)?json/);
  });
});

// What Next.js answers before any code of ours runs (docs/decisions.md, "What Next.js answers before
// our code"): its request adapter refuses the TRACE method and the asterisk-form target of
// `OPTIONS *` with a bare 500.
// We cannot intercept them; we check that nothing internal leaks.
test("TRACE and OPTIONS * leak nothing", async () => {
  for (const [method, path] of [
    ["TRACE", "/"],
    ["TRACE", "/api/health"],
    ["OPTIONS", "*"],
  ] as const) {
    const r = await raw(method, path);
    expect(r.body).not.toMatch(LEAK);
    expect(r.body.length).toBeLessThan(200);
  }
});

test("a page on another origin calls the Admin API from Chromium and reads its budget headers", async ({ page }) => {
  // A real server for the other origin: a page Playwright fulfils has no address, and Chromium's
  // local-network rules then refuse its requests to loopback before CORS is even asked.
  const tool = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>Admin tool</title>"));
  await new Promise<void>((resolve) => tool.listen(0, "127.0.0.1", resolve));
  try {
    const address = tool.address() as { port: number };
    await page.goto(`http://127.0.0.1:${address.port}/`);
    const result = await page.evaluate(
      async ({ url, key }) => {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-service-api-key": key, "api-version": "2026-01", "idempotency-key": "cors-check-1" },
          body: JSON.stringify({ query: "{ membershipPlans { id } }" }),
        });
        return { status: res.status, policy: res.headers.get("ratelimit-policy"), body: await res.json() };
      },
      { url: `${baseURL}/admin/graphql`, key: DEFAULT_DEMO_API_KEY },
    );
    expect(result.status).toBe(200);
    expect(result.body.data.membershipPlans.length).toBeGreaterThan(0);
    expect(result.policy).toContain("active-operations");
  } finally {
    await new Promise((resolve) => tool.close(resolve));
  }
});

test("object keys in ?error= are plain unknown codes on the login page (was a 500)", async ({ request }) => {
  await request.get("/api/auth/login"); // the CSRF cookie, so /login renders instead of redirecting
  for (const code of ["constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"]) {
    const res = await request.get(`/login?error=${code}`, { maxRedirects: 0 });
    expect(res.status(), code).toBe(200);
    expect(await res.text()).toContain("Sign-in failed. Please try again.");
  }
});
