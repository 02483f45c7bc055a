import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { appForSuite } from "../../helpers/app-for-suite";
import { ACME_HOST, DEMO_HOST, DEMO_MARKDOWN_PATHS, ORIGIN, SECRET, UNPUBLISHED_PATHS, parseMarkdown, seedUnpublished } from "./helpers";


const server = appForSuite({ host: DEMO_HOST, prepare: seedUnpublished });

const get = async (path: string, init: RequestInit = {}) => {
  const res = await server.fetch(path, init);
  return { res, text: await res.text() };
};

describe("every markdown route of the demo school", () => {
  it.each(DEMO_MARKDOWN_PATHS)("$path: text/markdown, YAML frontmatter with the common keys", async ({ path, type, slug }) => {
    const { res, text } = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const { data, body } = parseMarkdown(text);
    expect(data.type).toBe(type);
    expect(data.slug).toBe(slug);
    expect(typeof data.title).toBe("string");
    expect(typeof data.description).toBe("string");
    expect(data.markdown_url).toBe(ORIGIN + path);
    expect(String(data.url)).toMatch(new RegExp(`^${ORIGIN}/`));
    // Quoted ISO-8601 string, even for a YAML 1.1 parser.
    expect(typeof data.updated).toBe("string");
    expect(new Date(String(data.updated)).toISOString()).toBe(data.updated);
    expect(body).toContain(`# ${data.title}`);
    expect(text).not.toContain(SECRET);
  });

  it("a course has price and currency as strings, level, lecturers and category", async () => {
    const { data, body } = parseMarkdown((await get("/api/md/courses/intro-to-sql")).text);
    expect(data).toMatchObject({
      title: "Intro to SQL",
      url: `${ORIGIN}/courses/intro-to-sql`,
      price: "49.00",
      currency: "USD",
      level: "beginner",
      duration_minutes: 360,
      published: "2026-01-15T09:00:00.000Z",
      category: { name: "Data & Analytics", slug: "data", url: `${ORIGIN}/categories/data`, markdown_url: `${ORIGIN}/api/md/categories/data` },
      lecturers: [{ name: "Tomás Rivera", slug: "tomas-rivera", url: `${ORIGIN}/lecturers/tomas-rivera`, markdown_url: `${ORIGIN}/api/md/lecturers/tomas-rivera` }],
    });
    expect(body).toContain("- **Price:** 49.00 USD");
    expect(body).toContain("SELECT country, count(*) AS customers");
  });

  it("an event has start and end with the offset of its time zone", async () => {
    const ny = parseMarkdown((await get("/api/md/events/sql-office-hours-december")).text).data;
    expect(ny).toMatchObject({ start: "2026-12-10T12:00:00-05:00", end: "2026-12-10T13:30:00-05:00", timezone: "America/New_York", attendance_mode: "online" });
    expect(ny).not.toHaveProperty("price");
    const tokyo = parseMarkdown((await get("/api/md/events/portfolio-review-night")).text).data;
    expect(tokyo).toMatchObject({ start: "2027-02-04T18:00:00+09:00", end: "2027-02-04T20:00:00+09:00", price: "0.00", currency: "USD" });
    const lisbon = parseMarkdown((await get("/api/md/events/studio-lighting-workshop")).text).data;
    expect(lisbon).toMatchObject({ start: "2027-01-16T14:00:00+00:00", price: "120.00", currency: "EUR", attendance_mode: "offline" });
    expect(new Date(String(ny.start)).toISOString()).toBe("2026-12-10T17:00:00.000Z");
  });

  it("plans, downloads, posts, categories and lecturers carry their own keys", async () => {
    expect(parseMarkdown((await get("/api/md/plans/summer-cohort-2027")).text).data).toMatchObject({
      price: "199.00",
      currency: "USD",
      plan_type: "fixed_date",
      ends: "2027-09-01T00:00:00.000Z",
    });
    expect(parseMarkdown((await get("/api/md/plans/monthly")).text).data).toMatchObject({ plan_type: "recurring", interval: "month", interval_count: 1 });
    expect(parseMarkdown((await get("/api/md/plans/bootcamp-90-days")).text).data).toMatchObject({ plan_type: "specific_length", length_count: 90, length_interval: "day" });
    expect(parseMarkdown((await get("/api/md/digital-downloads/style-guide-template")).text).data).toMatchObject({
      price: "9.50",
      currency: "USD",
      file_name: "style-guide-template.docx",
      file_size_bytes: 1117,
    });
    expect(parseMarkdown((await get("/api/md/posts/five-sql-mistakes")).text).data).toMatchObject({
      published: "2026-05-02T08:00:00.000Z",
      author: { name: "Tomás Rivera", slug: "tomas-rivera" },
      category: { slug: "data" },
    });
    const category = parseMarkdown((await get("/api/md/categories/creative")).text);
    expect(category.data).toMatchObject({ courses: 2, posts: 1, events: 1, digital_downloads: 2 });
    expect(category.body).toContain(`(${ORIGIN}/api/md/courses/writing-for-the-web)`);
    const lecturer = parseMarkdown((await get("/api/md/lecturers/mei-ling-wu")).text);
    expect(lecturer.data).toMatchObject({ name: "Mei-Ling Wu", courses: ["product-photography-basics", "writing-for-the-web"] });
    expect(lecturer.body).toContain("She teaches lighting on a budget.");
  });

  it("HEAD has the GET headers and no body", async () => {
    const getRes = await get("/api/md/courses/intro-to-sql");
    const head = await server.fetch("/api/md/courses/intro-to-sql", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const h of ["content-type", "etag", "cache-control", "vary", "x-markdown-tokens", "content-length"]) {
      expect(head.headers.get(h), h).toBe(getRes.res.headers.get(h));
    }
  });

  it.each(DEMO_MARKDOWN_PATHS.flatMap(({ path }) => ["POST", "PUT", "PATCH", "DELETE"].map((method) => ({ path, method }))))(
    "$method $path is a markdown 405 with Allow",
    async ({ path, method }) => {
      const { res, text } = await get(path, { method, body: method === "DELETE" ? undefined : "x" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expectErrorDocument(res, text, 405, "Method not allowed");
    },
  );

  it("OPTIONS names the allowed methods", async () => {
    const res = await server.fetch("/api/md/courses/intro-to-sql", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

/** The one error-document shape: markdown, no-store, frontmatter type/status/title/message, absolute links only. */
function expectErrorDocument(res: Response, text: string, status: number, title: string) {
  expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const { data, body } = parseMarkdown(text);
  expect(Object.keys(data)).toEqual(["type", "status", "title", "message"]);
  expect(data).toMatchObject({ type: "error", status, title });
  expect(typeof data.message).toBe("string");
  expect(body).toContain(`# ${title}\n`);
  const links = [...body.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]!);
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) expect(l).toMatch(/^https?:\/\//);
}

describe("errors", () => {
  it.each(["/api/md/courses/no-such-course", "/api/md/posts/nope", "/api/md/events/nope", "/api/md/digital-downloads/nope", "/api/md/plans/nope", "/api/md/categories/nope", "/api/md/lecturers/nope"])(
    "%s: unknown slug is a 404 with a markdown body",
    async (path) => {
      const { res, text } = await get(path);
      expect(res.status).toBe(404);
      expectErrorDocument(res, text, 404, "Not found");
    },
  );

  it.each(["/api/md", "/api/md/", "/api/md/nope", "/api/md/courses/intro-to-sql/extra", "/api/md/home/x", "/api/md/a/b/c/d"])(
    "%s: a path under /api/md that names no document is a markdown 404, for every method",
    async (path) => {
      for (const method of ["GET", "POST", "DELETE"]) {
        const { res, text } = await get(path, { method });
        expect(res.status, `${method} ${path}`).toBe(404);
        expectErrorDocument(res, text, 404, "Not found");
      }
      const head = await server.fetch(path, { method: "HEAD" });
      expect(head.status).toBe(404);
      expect(await head.text()).toBe("");
    },
  );

  it.each(["Intro-To-SQL", "a_b", "-x", "x--y", "x.md", "%20", "a%2Fb", "x".repeat(201), "%E2%80%AE"])("malformed slug %j is a 400, never a 500", async (slug) => {
    const { res, text } = await get(`/api/md/courses/${slug}`);
    expect(res.status).toBe(400);
    expectErrorDocument(res, text, 400, "Bad request");
  });

  it("an unknown school is a 404 in markdown", async () => {
    const { res, text } = await get("/api/md/home", { headers: { host: "no-such-school.localhost" } });
    expect(res.status).toBe(404);
    expect(parseMarkdown(text).data.status).toBe(404);
  });
});

describe("caching", () => {
  it("a strong ETag answers 304 to If-None-Match (also weak and list forms) and changes with the content", async () => {
    const first = await get("/api/md/courses/intro-to-sql");
    const etag = first.res.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await server.fetch("/api/md/courses/intro-to-sql", { headers: { "if-none-match": inm } });
      expect(res.status, inm).toBe(304);
      expect(await res.text()).toBe("");
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe(first.res.headers.get("cache-control"));
    }
    expect((await server.fetch("/api/md/courses/intro-to-sql", { headers: { "if-none-match": '"stale"' } })).status).toBe(200);

    await db().course.update({ where: { schoolId_slug: { schoolId: (await db().school.findUniqueOrThrow({ where: { subdomain: "demo" } })).id, slug: "intro-to-sql" } }, data: { price: "59.00" } });
    const changed = await server.fetch("/api/md/courses/intro-to-sql", { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(parseMarkdown(await changed.text()).data.price).toBe("59.00");
  });

  it("public schools may be cached by shared caches; Vary: Accept; token estimate", async () => {
    const { res, text } = await get("/api/md/home");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60, stale-while-revalidate=300, stale-if-error=86400");
    expect(res.headers.get("vary")).toBe("Accept");
    expect(Number(res.headers.get("x-markdown-tokens"))).toBe(Math.ceil([...text].length / 4));
    expect(res.headers.get("link")).toBe(`<${ORIGIN}/>; rel="canonical"; type="text/html"`);
  });
});

describe("enterprise-training school", () => {
  it("/api/md/* is readable without a session and kept out of shared caches", async () => {
    const { res, text } = await get("/api/md/courses/security-awareness", { headers: { host: ACME_HOST } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("vary")).toBe("Accept, Cookie");
    const { data } = parseMarkdown(text);
    expect(data).toMatchObject({ title: "Security Awareness 2026", url: `http://${ACME_HOST}/courses/security-awareness` });
    // Not sold: no price keys.
    expect(data).not.toHaveProperty("price");
  });

  it("schools never see each other's content", async () => {
    expect((await get("/api/md/courses/intro-to-sql", { headers: { host: ACME_HOST } })).res.status).toBe(404);
    expect((await get("/api/md/courses/security-awareness")).res.status).toBe(404);
  });
});

describe("unpublished content", () => {
  it.each(UNPUBLISHED_PATHS)("%s is a 404", async (path) => {
    const { res, text } = await get(path);
    expect(res.status).toBe(404);
    expect(text).not.toContain(SECRET);
  });

  it("draft lecturers and hidden categories linked to published items are left out", async () => {
    const course = await get("/api/md/courses/intro-to-sql");
    expect(course.text).not.toContain(SECRET);
    expect(parseMarkdown(course.text).data.lecturers).toHaveLength(1);
    const post = parseMarkdown((await get("/api/md/posts/spring-schedule")).text);
    expect(post.data.category).toBeNull();
    expect(post.data.author).toBeNull();
    expect((await get("/api/md/faq")).text).not.toContain(SECRET);
    expect((await get("/api/md/lecturers")).text).not.toContain(SECRET);
    expect((await get("/api/md/courses")).text).not.toContain(SECRET);
  });
});

describe("absolute URLs", () => {
  it("come from Host, and from X-Forwarded-* only with TRUST_PROXY", async () => {
    const headers = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    expect(parseMarkdown((await get("/api/md/home", { headers })).text).data.url).toBe(`${ORIGIN}/`);
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    clearSchoolCache();
    try {
      await db().school.update({ where: { subdomain: "demo" }, data: { customDomain: "learn.demo.test" } });
      const res = await server.fetch("/api/md/home", { headers: { "x-forwarded-host": "learn.demo.test", "x-forwarded-proto": "https" } });
      expect(parseMarkdown(await res.text()).data.url).toBe("https://learn.demo.test/");
      expect(res.headers.get("vary")).toBe("Accept, X-Forwarded-Host, X-Forwarded-Proto");
    } finally {
      delete process.env.TRUST_PROXY;
      resetEnvCache();
      clearSchoolCache();
    }
  });
});
