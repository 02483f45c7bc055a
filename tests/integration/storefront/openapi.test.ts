import { validate, compileErrors } from "@readme/openapi-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { STOREFRONT_ROUTES } from "@/lib/storefront/routes";
import { appForSuite } from "../../helpers/app-for-suite";
import { ACME_HOST, DEMO_HOST, ORIGIN } from "./helpers";


const server = appForSuite({ host: DEMO_HOST });

type Media = { schema?: Record<string, unknown>; example?: unknown };
type Doc = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, Media> }>; parameters?: unknown[] }>>;
  components: Record<string, unknown>;
};

/** A validator for a schema of the document: `#/components/...` refs resolve against the document's own components. */
function schemaValidator(doc: Doc, schema: Record<string, unknown>) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile({ ...schema, components: doc.components });
}

/** A body the server sends must be described: a declared media type, and JSON valid against its schema. */
function expectDescribed(doc: Doc, where: string, declared: { content?: Record<string, Media> } | undefined, res: Response, body: string) {
  expect(declared, where).toBeDefined();
  if (!body) return;
  const content = declared!.content;
  expect(content, `${where}: sends a body the document does not describe`).toBeDefined();
  const type = res.headers.get("content-type")!.split(";")[0]!;
  expect(Object.keys(content!), where).toContain(type);
  const schema = content![type]!.schema;
  if (type === "application/json" && schema) {
    const check = schemaValidator(doc, schema);
    expect(check(JSON.parse(body)), `${where}: ${JSON.stringify(check.errors)}`).toBe(true);
  }
}

async function getDoc(headers: Record<string, string> = {}): Promise<{ res: Response; doc: Doc }> {
  const res = await server.fetch("/openapi.json", { headers });
  return { res, doc: (await res.json()) as Doc };
}

describe("/openapi.json", () => {
  it("is a valid OpenAPI 3.0 document", async () => {
    const { res, doc } = await getDoc();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(doc.openapi).toMatch(/^3\.0\.\d$/);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    // The validator really checks: a broken copy is refused.
    const broken = structuredClone(doc) as unknown as Record<string, unknown>;
    (broken.paths as Record<string, unknown>)["/api/md/home"] = { get: { responses: { "200": {} } } };
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it("is clean under Redocly's recommended ruleset (errors and warnings)", async () => {
    // servers[].url is the requesting origin: the suite's is localhost, which the rule
    // no-server-example.com flags by design; a deployed school's origin is what is linted here.
    const { doc } = await getDoc({ host: ACME_HOST });
    expect(doc.servers).toEqual([{ url: `http://${ACME_HOST}` }]);
    doc.servers = [{ url: "https://acme-training.schoolhouse.app" }];
    const lint = async (d: unknown) =>
      (await lintFromString({ source: JSON.stringify(d), absoluteRef: "openapi.json", config: await createConfig({ extends: ["recommended"] }) })).map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} ${p.location.map((l) => l.pointer).join(" ")}`,
      );
    expect(await lint(doc)).toEqual([]);
    // The linter really checks: an operation without security is reported.
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
    delete broken.paths["/llms.txt"]!.get!.security;
    expect((await lint(broken)).some((p) => p.startsWith("error security-defined"))).toBe(true);
  });

  it("every response the suite's app server sends for a documented operation is checked against the document", async () => {
    const { documentedOperation, openApiViolation } = await import("../../helpers/openapi-conformance");
    const token = documentedOperation("POST", "/api/oauth/token")!;
    const error = { status: 400, contentType: "application/json", body: JSON.stringify({ error: "invalid_request" }) };
    expect(openApiViolation(token, error)).toBeNull();
    // An undocumented field, an undeclared status or media type, a body where none is declared: each is caught.
    expect(openApiViolation(token, { ...error, body: JSON.stringify({ error: "invalid_request", hint: "x" }) })).toMatch(/additional properties/);
    expect(openApiViolation(token, { ...error, status: 418 })).toMatch(/status 418 is not declared/);
    expect(openApiViolation(token, { ...error, contentType: "text/plain" })).toMatch(/sent as text\/plain/);
    expect(openApiViolation(documentedOperation("GET", "/api/md/courses/intro-to-sql")!, { status: 304, contentType: "text/plain", body: "x" })).toMatch(/does not describe/);
    expect(documentedOperation("GET", "/api/md/courses/a/b")).toBeUndefined();
    // The hook is live: a drifted response of the real server would be a 500 naming the difference.
    expect((await server.fetch("/.well-known/oauth-authorization-server")).status).toBe(200);
  });

  it("describes the eleven markdown routes, llms files and every OAuth / OpenID Connect endpoint of the spec", async () => {
    const { doc } = await getDoc();
    const expected: Record<string, string[]> = {
      ...Object.fromEntries(STOREFRONT_ROUTES.map((r) => [r.markdownPath, ["get", "head"]])),
      "/llms.txt": ["get", "head"],
      "/llms-full.txt": ["get", "head"],
      "/llms-full/{part}.txt": ["get", "head"],
      "/robots.txt": ["get", "head"],
      "/sitemap.xml": ["get", "head"],
      "/admin/graphql/schema.graphql": ["get", "head"],
      "/openapi.json": ["get", "head"],
      "/oauth/authorize": ["get"],
      "/api/oauth/token": ["post"],
      "/api/oauth/revoke": ["post"],
      "/api/oauth/introspect": ["post"],
      "/api/oauth/userinfo": ["get", "post"],
      "/.well-known/oauth-authorization-server": ["get"],
      "/.well-known/openid-configuration": ["get"],
      "/api/oauth/jwks": ["get"],
      "/oauth/end-session": ["get", "post"],
      "/api/oauth/register": ["post"],
      "/mcp": ["post"],
      "/.well-known/oauth-protected-resource/mcp": ["get"],
      "/.well-known/mcp/server-card.json": ["get"],
    };
    expect(Object.keys(expected)).toHaveLength(31);
    for (const [path, methods] of Object.entries(expected)) expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual(methods.sort());
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(expected).sort());
    const token = doc.paths["/api/oauth/token"]!.post!;
    expect(Object.keys(token.responses).sort()).toEqual(["200", "400", "401", "413", "503"]);
  });

  it("servers[].url is the requested origin", async () => {
    expect((await getDoc()).doc.servers).toEqual([{ url: ORIGIN }]);
    expect((await getDoc({ host: ACME_HOST })).doc.servers).toEqual([{ url: `http://${ACME_HOST}` }]);
  });

  it("a spoofed X-Forwarded-Host cannot change servers[].url unless the proxy is trusted", async () => {
    const spoof = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const { res, doc } = await getDoc(spoof);
    expect(doc.servers).toEqual([{ url: ORIGIN }]);
    expect(res.headers.get("vary")).toBe("Accept");
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    clearSchoolCache();
    try {
      const trusted = await getDoc({ "x-forwarded-host": "demo.localhost", "x-forwarded-proto": "https" });
      expect(trusted.doc.servers).toEqual([{ url: "https://demo.localhost" }]);
      // Caches must key on the forwarded headers once they count.
      expect(trusted.res.headers.get("vary")).toContain("X-Forwarded-Host");
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
      clearSchoolCache();
    }
  });

  it("every documented storefront path answers as declared", async () => {
    const { doc } = await getDoc();
    const storefront = Object.entries(doc.paths).filter(([p]) => !/oauth|well-known|^\/mcp$/.test(p));
    expect(storefront.map(([p]) => p)).toEqual(expect.arrayContaining(["/llms-full/{part}.txt", "/robots.txt", "/sitemap.xml", "/admin/graphql/schema.graphql"]));
    expect(storefront).toHaveLength(18);
    for (const [pattern, ops] of storefront) {
      for (const [method, op] of Object.entries(ops)) {
        const declared = op.responses;
        const path = pattern.replace("{part}", "courses").replace("{slug}", pattern.includes("/courses/") ? "intro-to-sql" : pattern.includes("/posts/") ? "five-sql-mistakes" : pattern.includes("/events/") ? "sql-office-hours-december" : pattern.includes("/digital-downloads/") ? "sql-cheat-sheet" : pattern.includes("/plans/") ? "lifetime" : pattern.includes("/categories/") ? "career" : "grace-adeyemi");
        const ok = await server.fetch(path, { method: method.toUpperCase() });
        expect(Object.keys(declared), `${method} ${path} → ${ok.status}`).toContain(String(ok.status));
        const etag = ok.headers.get("etag");
        expectDescribed(doc, `${method} ${path} ${ok.status}`, declared[String(ok.status)], ok, await ok.text());
        if (declared["304"] && etag) {
          const again = await server.fetch(path, { method: method.toUpperCase(), headers: { "if-none-match": etag } });
          expect(again.status, path).toBe(304);
          expectDescribed(doc, `${method} ${path} 304`, declared["304"], again, await again.text());
        }
        if (pattern.includes("{slug}")) {
          expect((await server.fetch(pattern.replace("{slug}", "no-such-item"), { method: method.toUpperCase() })).status).toBe(404);
          expect((await server.fetch(pattern.replace("{slug}", "Bad_Slug"), { method: method.toUpperCase() })).status).toBe(400);
          expect(Object.keys(declared)).toEqual(expect.arrayContaining(["400", "404"]));
        }
      }
    }
  });
  it("every documented OAuth / OpenID Connect path answers as declared", async () => {
    const { doc } = await getDoc();
    const form = { "content-type": "application/x-www-form-urlencoded" };
    // Minimal requests each endpoint must answer with one of its declared statuses.
    const probes: Array<[string, string, RequestInit]> = [
      ["/oauth/authorize", "get", {}],
      ["/api/oauth/token", "post", { method: "POST", headers: form, body: "" }],
      ["/api/oauth/token", "post", { method: "POST", headers: form, body: "grant_type=password&client_id=demo-public-app" }],
      ["/api/oauth/revoke", "post", { method: "POST", headers: form, body: "token=nope&client_id=demo-public-app" }],
      ["/api/oauth/introspect", "post", { method: "POST", headers: form, body: "token=nope&client_id=demo-public-app" }],
      ["/api/oauth/userinfo", "get", {}],
      ["/api/oauth/userinfo", "post", { method: "POST" }],
      ["/.well-known/oauth-authorization-server", "get", {}],
      ["/.well-known/openid-configuration", "get", {}],
      ["/api/oauth/jwks", "get", {}],
      ["/api/oauth/register", "post", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Unknown Vendor" }) }],
      ["/mcp", "post", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
      ["/.well-known/oauth-protected-resource/mcp", "get", {}],
      ["/.well-known/mcp/server-card.json", "get", {}],
    ];
    for (const [path, method, init] of probes) {
      const declared = doc.paths[path]![method]!.responses;
      const res = await server.fetch(path, init);
      const status = String(res.status);
      expect(Object.keys(declared), `${method} ${path} → ${status}`).toContain(status);
      expectDescribed(doc, `${method} ${path} ${status}`, declared[status], res, await res.text());
    }
  });

  it("revocation of a real token is described too: 200 with {} as the body", async () => {
    const { doc } = await getDoc();
    const res = await server.fetch("/api/oauth/revoke", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "token=not-a-real-token&client_id=demo-public-app",
    });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toBe("{}");
    expectDescribed(doc, "revoke", doc.paths["/api/oauth/revoke"]!.post!.responses["200"], res, body);
  });

  it("every example is valid against its own schema, and the main responses have one", async () => {
    const { doc } = await getDoc();
    let examples = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses)) {
          for (const [type, media] of Object.entries(r.content ?? {})) {
            if (media.example === undefined || !media.schema) continue;
            examples++;
            expect(schemaValidator(doc, media.schema)(media.example), `${method} ${path} ${status} ${type}`).toBe(true);
          }
        }
      }
    }
    expect(doc.paths["/api/md/courses/{slug}"]!.get!.responses["200"]!.content!["text/markdown"]!.example).toMatch(/^---\ntype: "course"/);
    expect(doc.paths["/api/oauth/revoke"]!.post!.responses["200"]!.content!["application/json"]!.example).toEqual({});
    expect(examples).toBeGreaterThan(20);
    // Each error example is a document of its own status (the 400 used to be a 404 document).
    for (const status of ["400", "404"]) {
      expect(doc.paths["/api/md/courses/{slug}"]!.get!.responses[status]!.content!["text/markdown"]!.example, status).toMatch(new RegExp(`^---\ntype: "error"\nstatus: ${status}\n`));
    }
  });
});
