// proxy.ts answers GET/HEAD of the markdown twins and the llms files itself (the route table's
// `proxy` entries, app/_routes/table.ts). What it serves must be what the route handlers serve: the negotiated markdown
// of an HTML page still goes through the proxy's rewrite to the /api/md route handler, so the two
// are compared header by header; everything the proxy leaves alone still reaches the handlers.
import { expect, test } from "@playwright/test";
import { PAGES } from "./storefront-helpers";

const SAME = ["content-type", "cache-control", "etag", "link", "content-signal", "x-markdown-tokens", "x-content-type-options"];

test.describe("markdown and llms files served by the proxy", () => {
  test("every /api/md twin answers exactly as its route handler does (GET, HEAD, 304)", async ({ request }) => {
    for (const p of PAGES) {
      const direct = await request.get(p.md);
      const viaRoute = await request.get(p.html, { headers: { accept: "text/markdown" } });
      expect(direct.status(), p.md).toBe(200);
      expect(await direct.text(), p.md).toBe(await viaRoute.text());
      for (const h of SAME) expect(direct.headers()[h], `${p.md} ${h}`).toBe(viaRoute.headers()[h]);
      expect(direct.headers()["vary"], p.md).toMatch(/\bAccept\b/);
      const head = await request.head(p.md);
      expect(head.status(), p.md).toBe(200);
      expect(await head.text()).toBe("");
      for (const h of SAME) expect(head.headers()[h], `HEAD ${p.md} ${h}`).toBe(direct.headers()[h]);
      const again = await request.get(p.md, { headers: { "if-none-match": direct.headers()["etag"]! } });
      expect(again.status(), p.md).toBe(304);
    }
  });

  for (const file of ["/llms.txt", "/llms-full.txt"]) {
    test(`${file}: GET, HEAD and 304`, async ({ request }) => {
      const res = await request.get(file);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toBe("text/plain; charset=utf-8");
      expect(await res.text()).toContain("Intro to SQL");
      const etag = res.headers()["etag"]!;
      expect(etag).toMatch(/^"[\w-]{32}"$/);
      const head = await request.head(file);
      expect(head.status()).toBe(200);
      expect(head.headers()["etag"]).toBe(etag);
      expect(await head.text()).toBe("");
      expect((await request.get(file, { headers: { "if-none-match": `W/${etag}` } })).status()).toBe(304);
    });
  }

  test("what the proxy leaves alone still reaches the route handlers", async ({ request }) => {
    const options = await request.fetch("/api/md/courses/intro-to-sql", { method: "OPTIONS" });
    expect(options.status()).toBe(204);
    expect(options.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
    const post = await request.post("/api/md/courses/intro-to-sql");
    expect(post.status()).toBe(405);
    expect(post.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
    expect(post.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    expect((await request.get("/api/md/courses/Bad_Slug")).status()).toBe(400);
    const unknown = await request.get("/api/md/nope");
    expect(unknown.status()).toBe(404);
    expect(unknown.headers()["content-type"]).toBe("text/markdown; charset=utf-8");
    // A percent-encoded slug is decoded by Next for the route handler: the same document.
    const encoded = await request.get("/api/md/courses/intro%2Dto-sql");
    expect(encoded.status()).toBe(200);
    expect(await encoded.text()).toBe(await (await request.get("/api/md/courses/intro-to-sql")).text());
  });
});
