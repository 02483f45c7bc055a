// The playground as a small page and immutable assets (issue 29, item 2): GraphiQL's script, style,
// workers and icon are served once under content-hashed names; the page holds none of them.
import { describe, expect, it } from "vitest";
import { adminAppForSuite } from "./helpers";

const app = adminAppForSuite();

describe("the Admin API playground", () => {
  it("is a page of a few KB whose assets are immutable, content-hashed files of this server", async () => {
    const r = await app.fetch("/admin/graphql", { headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-cache");
    const html = await r.text();
    expect(Buffer.byteLength(html)).toBeLessThan(20_000);
    const urls = [...html.matchAll(/(?:src|href)="(\/admin\/graphql\/assets\/[^"]+)"/g), ...html.matchAll(/"(\/admin\/graphql\/assets\/[^"]+\.worker\.[^"]+)"/g)].map((m) => m[1]!);
    expect(urls.filter((u) => u.endsWith(".js")).length).toBe(4); // GraphiQL and its three workers
    expect(urls.some((u) => u.endsWith(".css"))).toBe(true);
    let total = 0;
    for (const url of new Set(urls)) {
      const a = await app.fetch(url);
      expect(a.status, url).toBe(200);
      expect(a.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(a.headers.get("content-type")).toMatch(url.endsWith(".css") ? /^text\/css/ : url.endsWith(".js") ? /^text\/javascript/ : /^image\//);
      total += (await a.arrayBuffer()).byteLength;
      const again = await app.fetch(url, { headers: { "if-none-match": a.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    expect(total).toBeGreaterThan(5_000_000);
    for (const bad of ["/admin/graphql/assets/graphiql.js", "/admin/graphql/assets/..%2Fhandlers.ts", "/admin/graphql/assets/x"]) {
      expect((await app.fetch(bad)).status, bad).toBe(404);
    }
  });

  it("asks for the key once: no tab carries a key placeholder, every tab keeps the API-Version header", async () => {
    const html = await (await app.fetch("/admin/graphql", { headers: { accept: "text/html" } })).text();
    expect(html).not.toContain("paste-your-api-key-here");
    expect(html).toMatch(/<label for="api-key">API key/);
    expect(html).toContain("sessionStorage");
    expect(html).toContain('\\"API-Version\\": \\"2026-01\\"');
  });
});
