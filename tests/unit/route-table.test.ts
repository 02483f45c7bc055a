// The route table (app/_routes/table.ts) is the one declaration of every endpoint: each
// app/**/route.ts is its one-liner and exports exactly the table's handlers, and proxy.ts answers
// only what the table marks `proxy`, with the same handler objects. This walks app/ and the table
// and fails on an endpoint in one but not the other, or on a path and method with two handlers.
// The OAuth front (server/front.mjs) answers only what the table marks `front`, found on the route
// module's own handler objects.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FRONT_METHODS, FRONT_PLAIN, METHODS, type Endpoint, type Method } from "@/app/_routes/endpoint";
import type { PlainHandler } from "@/lib/http/plain";
import { proxyMatch, ROUTES, type RoutePath } from "@/app/_routes/table";
import { ADMIN_GRAPHQL_PATH } from "@/lib/admin-api/path";
import { MCP_PATH } from "@/lib/mcp/http";
import { STOREFRONT_ROUTES } from "@/lib/storefront/routes";
import { FRONT_METHODS as FRONT_KEY, FRONT_PLAIN as FRONT_PLAIN_KEY, frontHandlers } from "@/server/front.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const APP = path.join(ROOT, "app");
const TABLE = ROUTES as Record<RoutePath, Endpoint>;
const PATHS = Object.keys(ROUTES) as RoutePath[];

/** Every route file under app/ with the path Next serves it at (route groups dropped, private `_` folders skipped). */
function routeFiles(dir = APP, segments: string[] = []): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("_")) continue;
      const next = /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name];
      found.push(...routeFiles(path.join(dir, entry.name), next));
    } else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) {
      found.push({ file: path.join(dir, entry.name), path: `/${segments.join("/")}` });
    }
  }
  return found;
}

const methodsOf = (p: RoutePath) => METHODS.filter((m) => TABLE[p].methods[m]);

/** The one route file the table allows for a path: its segment config and the table's handlers. */
function expectedRouteFile(p: RoutePath): string {
  const maxDuration = TABLE[p].maxDuration;
  return [
    `import { route } from "@/app/_routes/table";`,
    ``,
    `export const dynamic = "force-dynamic";`,
    ...(maxDuration === undefined ? [] : [`export const maxDuration = ${maxDuration};`]),
    `export const { ${methodsOf(p).join(", ")} } = route("${p}");`,
    ``,
  ].join("\n");
}

describe("the route table and app/", () => {
  const files = routeFiles();

  it("every route file under app/ is an entry of the table, and every entry has its route file", () => {
    expect(files.map((f) => f.path).sort()).toEqual([...PATHS].sort());
  });

  it.each(files.map((f) => [f.path, f.file] as const))("%s: the route file is the table's one-liner", (p, file) => {
    expect(readFileSync(file, "utf8"), `${path.relative(ROOT, file)} must be exactly this (add handlers to app/_routes/table.ts)`).toBe(
      expectedRouteFile(p as RoutePath),
    );
  });

  it.each(files.map((f) => [f.path, f.file] as const))("%s: the route exports the table's handler objects, nothing else", async (p, file) => {
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const exported = METHODS.filter((m) => m in mod);
    expect(exported).toEqual(methodsOf(p as RoutePath));
    for (const m of exported) expect(mod[m], m).toBe(TABLE[p as RoutePath].methods[m]);
  });

  it("no two entries are the same route (Next would answer one path with two handlers)", () => {
    const shape = (p: string) => p.replace(/\[\[\.\.\.\w+\]\]|\[\.\.\.\w+\]|\[\w+\]/g, (s) => (s.startsWith("[[") ? "[[...]]" : s.startsWith("[...") ? "[...]" : "[]"));
    const shapes = PATHS.map(shape);
    expect(new Set(shapes).size).toBe(shapes.length);
  });

  it("every handler is a function, and a method's handler is declared once per path", () => {
    for (const p of PATHS) {
      const methods = Object.keys(TABLE[p].methods);
      expect(methods.every((m) => (METHODS as readonly string[]).includes(m)), p).toBe(true);
      for (const m of methodsOf(p)) expect(typeof TABLE[p].methods[m], `${p} ${m}`).toBe("function");
    }
  });

  it("the lib/ path constants name table entries", () => {
    expect(PATHS).toContain(ADMIN_GRAPHQL_PATH);
    expect(PATHS).toContain(MCP_PATH);
    // Each storefront twin of lib/storefront/routes.ts is an endpoint, and the table has no other twin.
    const twins = STOREFRONT_ROUTES.map((r) => r.markdownPath.replace("{slug}", "[slug]")).sort();
    expect(PATHS.filter((p) => p.startsWith("/api/md/") && !p.includes("...")).sort()).toEqual(twins);
  });
});

describe("what proxy.ts answers", () => {
  const proxied = PATHS.flatMap((p) => (TABLE[p].proxy?.methods ?? []).map((m) => [p, m] as const));

  it("only methods the route answers too, with the same handler", () => {
    expect(proxied.length).toBeGreaterThan(0);
    for (const [p, m] of proxied) expect(TABLE[p].methods[m], `${p} ${m}`).toBeTypeOf("function");
  });

  // A sample request path of each proxied entry; its method is answered by the table's own handler.
  const sample = (p: string) => p.replace("[slug]", "intro-to-sql");
  it.each(proxied.map(([p, m]) => [m, p] as const))("%s %s: the proxy answers with the table's handler", (m, p) => {
    const match = proxyMatch(m, sample(p));
    expect(match?.path).toBe(p);
    expect(match?.handler).toBe(TABLE[p].methods[m]);
  });

  it.each(PATHS.flatMap((p) => METHODS.filter((m) => !TABLE[p].proxy?.methods.includes(m)).map((m) => [m, p] as const)))(
    "%s %s goes on to the route",
    (m, p) => {
      expect(proxyMatch(m as Method, sample(p))).toBeNull();
    },
  );

  it("passes a twin's raw slug as the route's param", async () => {
    expect(await proxyMatch("GET", "/api/md/courses/intro-to-sql")?.ctx?.params).toEqual({ slug: "intro-to-sql" });
    expect(await proxyMatch("HEAD", "/api/md/digital-downloads/sql-cheatsheet")?.ctx?.params).toEqual({ slug: "sql-cheatsheet" });
    expect(proxyMatch("GET", "/api/md/faq")?.path).toBe("/api/md/faq");
  });

  // Everything the proxy does not serve itself goes on to the route handlers: 400 for malformed
  // slugs, decoded params for percent-encoding, the catch-all 404, Next's trailing-slash redirect.
  it.each([
    "/api/md",
    "/api/md/",
    "/api/md/home/",
    "/api/md/courses/",
    "/api/md/courses/Intro-To-SQL",
    "/api/md/courses/intro--sql",
    "/api/md/courses/intro%2Dto-sql",
    "/api/md/courses/intro-to-sql/",
    "/api/md/courses/intro-to-sql/extra",
    "/api/md/nope",
    "/api/md/coursesx",
    `/api/md/courses/${"a".repeat(201)}`,
    "/courses/intro-to-sql",
    "/llms.txt/",
    "/llms-full/part-1.txt",
    "/admin/graphql/",
    "/mcp/",
  ])("GET %s is left to the route handlers", (p) => {
    expect(proxyMatch("GET", p)).toBeNull();
  });

  it("proxy.ts reaches handlers only through the table (no handler import of its own)", () => {
    const source = readFileSync(path.join(ROOT, "proxy.ts"), "utf8");
    expect(source).toContain("answerInProxy(");
    expect(source).not.toMatch(/\bimport\(/);
    expect(source).not.toMatch(/from "@\/app\/(?!_routes\/table")/);
  });
});

describe("what the OAuth front answers", () => {
  const fronted = PATHS.flatMap((p) => (TABLE[p].front ?? []).map((m) => [p, m] as const));
  const marks = (h: unknown) => (h as { [FRONT_METHODS]?: Method[] } | undefined)?.[FRONT_METHODS];

  it("the hot OAuth JSON endpoints and POST of the Admin API and MCP, only on fixed paths that skip the proxy or that the proxy answers", () => {
    expect(fronted).toEqual(
      expect.arrayContaining([
        ["/api/oauth/token", "POST"],
        ["/api/oauth/introspect", "POST"],
        ["/admin/graphql", "POST"],
        ["/mcp", "POST"],
      ]),
    );
    for (const [p, m] of fronted) {
      expect(TABLE[p].skipsProxy === true || TABLE[p].proxy?.methods.includes(m) === true, `${p} ${m}`).toBe(true);
      expect(p, p).not.toContain("[");
      expect(TABLE[p].methods[m], `${p} ${m}`).toBeTypeOf("function");
    }
  });

  // The front runs no proxy: each handler it takes runs the edge guard itself, before its own code.
  it.each(PATHS.flatMap((p) => (TABLE[p].front ?? []).map((m) => [m, p] as const)))("%s %s: the front's handler refuses a malformed Host itself (the edge guard)", async (m, p) => {
    const res = await TABLE[p].methods[m]!(new Request(`http://localhost${p}`, { method: m, headers: { host: "a b" } }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Host");
  });

  // The OAuth JSON endpoints are written on plain requests: the front calls that form, with no
  // Request or Response built, and it runs the edge guard too, with the same refusal.
  const plainOf = (h: unknown) => (h as { [FRONT_PLAIN]?: PlainHandler } | undefined)?.[FRONT_PLAIN];
  const oauthFronted = fronted.filter(([p]) => p.startsWith("/api/oauth/"));
  it("every front method of the OAuth endpoints has a plain form, and the Admin API and MCP have none", () => {
    expect(oauthFronted.length).toBeGreaterThanOrEqual(4);
    for (const [p, m] of fronted) expect(plainOf(TABLE[p].methods[m]) !== undefined, `${p} ${m}`).toBe(p.startsWith("/api/oauth/"));
  });
  it.each(oauthFronted.map(([p, m]) => [m, p] as const))("%s %s: the plain form refuses a malformed Host with the guard's answer", async (m, p) => {
    const request = new Request(`http://localhost${p}`, { method: m, headers: { host: "a b" } });
    const viaFetch = await TABLE[p].methods[m]!(request.clone());
    const plain = await plainOf(TABLE[p].methods[m])!(request);
    expect(plain.status).toBe(400);
    expect(plain.body).toBe(await viaFetch.text());
    expect(plain.headers).toEqual(Object.fromEntries(viaFetch.headers));
  });

  it("server/front.mjs reads the keys the table sets", () => {
    expect(FRONT_KEY).toBe(FRONT_METHODS);
    expect(FRONT_PLAIN_KEY).toBe(FRONT_PLAIN);
  });

  it.each(PATHS.flatMap((p) => methodsOf(p).map((m) => [m, p] as const)))("%s %s: the handler is marked for the front exactly when the table says", (m, p) => {
    expect(marks(TABLE[p].methods[m])?.includes(m) ?? false).toBe(TABLE[p].front?.includes(m) ?? false);
  });

  // The front takes the handlers from the route module Next compiled for the path (its
  // `routeModule.userland`, the route file's exports): from each route file it finds exactly the
  // table's front methods, with the table's handler objects.
  it.each(routeFiles().map((f) => [f.path, f.file] as const))("%s: the front finds the table's front methods in the route module", async (p, file) => {
    const userland = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    const found = await frontHandlers({ routeModule: { ensureUserland: async () => {}, userland } });
    expect([...found!.keys()].sort()).toEqual([...(TABLE[p as RoutePath].front ?? [])].sort());
    for (const [m, handler] of found!) {
      const table = TABLE[p as RoutePath].methods[m as Method];
      expect(handler.fetch, m).toBe(table);
      expect(handler.plain, m).toBe(plainOf(table));
    }
  });
});
