// next.config.mjs's headers() on the front's answers (server/front.mjs, configHeaders): Next sets
// them on every response for a matching path, so the front does too, read from the build's
// routes-manifest.json; a path whose rules the front cannot evaluate stays Next's. This build's
// headers on the front's answers: tests/e2e/admin-proxy-served.spec.ts.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configHeaders } from "@/server/front.mjs";

function distWith(headers: unknown[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "front-headers-"));
  writeFileSync(path.join(dir, "routes-manifest.json"), JSON.stringify({ headers }));
  return dir;
}

const noFraming = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "no-referrer" },
];

describe("the front's config headers", () => {
  it("gives each path the headers of every rule matching it, a later rule's value replacing an earlier one's", () => {
    const dist = distWith([
      { source: "/admin/:path*", regex: "^/admin(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?(?:/)?$", headers: noFraming },
      { source: "/admin/graphql", regex: "^/admin/graphql(?:/)?$", headers: [{ key: "referrer-policy", value: "same-origin" }] },
    ]);
    const found = configHeaders(dist, ["/admin/graphql", "/mcp"]);
    expect(found.get("/admin/graphql")).toEqual([
      ["X-Frame-Options", "DENY"],
      ["referrer-policy", "same-origin"],
    ]);
    expect(found.get("/mcp")).toEqual([]);
  });

  it("leaves a path out when a rule matching it has conditions or a parameter in a value", () => {
    const dist = distWith([
      { source: "/a", regex: "^/a(?:/)?$", headers: noFraming, has: [{ type: "header", key: "x-test" }] },
      { source: "/b/:slug", regex: "^/b(?:/([^/]+?))(?:/)?$", headers: [{ key: "x-slug", value: ":slug" }] },
      { source: "/c", regex: "^/c(?:/)?$", headers: [{ key: "Content-Security-Policy", value: "frame-ancestors 'none'" }] },
    ]);
    const found = configHeaders(dist, ["/a", "/b/x", "/c"]);
    expect(found.has("/a")).toBe(false);
    expect(found.has("/b/x")).toBe(false);
    expect(found.get("/c")).toEqual([["Content-Security-Policy", "frame-ancestors 'none'"]]);
  });
});
