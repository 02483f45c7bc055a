import { expect, test } from "@playwright/test";
import { PAGES } from "./storefront-helpers";

const COURSE = "/courses/intro-to-sql";

test.describe("Accept negotiation on HTML pages", () => {
  const table: Array<[string | undefined, "markdown" | "html"]> = [
    ["text/markdown, text/html, */*", "markdown"],
    ["text/html, text/markdown", "html"],
    ["text/markdown;q=0", "html"],
    [undefined, "html"],
    ["*/*", "html"],
    ["text/markdown", "markdown"],
    ["Text/Markdown ; q=0.9 , text/html ; q=0.5", "markdown"],
    ["text/html;q=0.9, text/markdown;q=0.9", "html"],
    ["application/json", "html"],
  ];
  for (const [accept, expected] of table) {
    test(`Accept: ${accept ?? "(none)"} → ${expected}`, async ({ request }) => {
      const headers: Record<string, string> = accept === undefined ? {} : { accept };
      const res = await request.get(COURSE, { headers });
      expect(res.status()).toBe(200);
      const type = res.headers()["content-type"];
      if (expected === "markdown") {
        expect(type).toBe("text/markdown; charset=utf-8");
        expect(res.headers()["vary"]).toMatch(/\bAccept\b/);
        expect(await res.text()).toBe(await (await request.get(`/api/md${COURSE}`)).text());
      } else {
        expect(type).toBe("text/html; charset=utf-8");
        expect(await res.text()).toContain("<h1>Intro to SQL</h1>");
      }
    });
  }

  test("every page returns exactly its /api/md twin for Accept: text/markdown (GET and HEAD, ETag and 304)", async ({ request }) => {
    for (const p of PAGES) {
      const negotiated = await request.get(p.html, { headers: { accept: "text/markdown" } });
      const twin = await request.get(p.md);
      expect(negotiated.status(), p.html).toBe(200);
      expect(await negotiated.text(), p.html).toBe(await twin.text());
      const etag = negotiated.headers()["etag"]!;
      expect(etag).toBe(twin.headers()["etag"]);
      const again = await request.get(p.html, { headers: { accept: "text/markdown", "if-none-match": etag } });
      expect(again.status(), p.html).toBe(304);
      const head = await request.head(p.html, { headers: { accept: "text/markdown" } });
      expect(head.status()).toBe(200);
      expect(head.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    }
  });

  test("unknown and malformed slugs answer in markdown too", async ({ request }) => {
    const missing = await request.get("/courses/no-such-course", { headers: { accept: "text/markdown" } });
    expect(missing.status()).toBe(404);
    expect(missing.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    const bad = await request.get("/courses/Bad_Slug", { headers: { accept: "text/markdown" } });
    expect(bad.status()).toBe(400);
  });

  test("HTML responses are never stored by caches, so a cached markdown variant cannot be served to browsers", async ({ request }) => {
    const html = await request.get(COURSE);
    expect(html.headers()["cache-control"]).toContain("no-store");
  });

  test("paths outside the storefront are not negotiated", async ({ request }) => {
    const res = await request.get("/api/health", { headers: { accept: "text/markdown" } });
    expect(res.headers()["content-type"]).toContain("application/json");
  });
});

test.describe("markdown for agents without negotiation", () => {
  const mdUrl = (html: string) => (html === "/" ? "/index.md" : `${html}.md`);

  test("every page's .md URL serves exactly its /api/md twin, whatever the Accept", async ({ request }) => {
    for (const p of PAGES) {
      const res = await request.get(mdUrl(p.html), { headers: { accept: "text/html" } });
      expect(res.status(), mdUrl(p.html)).toBe(200);
      expect(res.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
      expect(await res.text(), mdUrl(p.html)).toBe(await (await request.get(p.md)).text());
    }
    const missing = await request.get("/courses/no-such-course.md");
    expect(missing.status()).toBe(404);
    expect(missing.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
  });

  test("every HTML page links its markdown twin in a Link header and carries the school's Content-Signal", async ({ request, baseURL }) => {
    for (const p of PAGES) {
      const res = await request.get(p.html);
      expect(res.headers()["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers()["link"], p.html).toContain(`<${baseURL}${p.md}>; rel="alternate"; type="text/markdown"`);
      expect(res.headers()["content-signal"], p.html).toBe("search=yes, ai-input=yes, ai-train=no");
    }
  });
});
