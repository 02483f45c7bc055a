// proxy.ts's matcher (issue 29, item 13): Next reads the whole body of a request the proxy matched
// before answering, so a body-reading endpoint must skip the proxy exactly when its body is
// declared past its limit (or chunked). Next needs literal patterns there; this ties them to the
// limits the endpoints enforce, and checks no other path can skip the proxy (the storefront gate).
import { describe, expect, it } from "vitest";
import { ADMIN_MAX_BODY_BYTES } from "@/lib/admin-api/request-shape";
import { MAX_BODY_BYTES as MCP_MAX_BODY_BYTES } from "@/lib/mcp/handler";
import { MAX_OAUTH_BODY_BYTES } from "@/lib/oauth/http";
import type { Endpoint } from "@/app/_routes/endpoint";
import { ROUTES, type RoutePath } from "@/app/_routes/table";
import { config } from "@/proxy";

type Entry = string | { source: string; missing: { type: string; key: string; value?: string }[] };
const entries = config.matcher as Entry[];
const [always, ...conditional] = entries;

function toRegExp(source: string): RegExp {
  // The sources are "/(<regex>)": path-to-regexp takes the group as written.
  return new RegExp(`^${source}$`);
}
const declaredPattern = (e: Entry) => {
  if (typeof e === "string") throw new Error("expected a conditional entry");
  const value = e.missing.find((m) => m.key === "content-length")?.value;
  return new RegExp(`^${value}$`);
};

describe("proxy.ts matcher", () => {
  it("always matches every path but Next's assets and the body-reading endpoints", () => {
    const re = toRegExp(always as string);
    for (const p of ["/", "/courses/intro-to-rust", "/login", "/api/md/courses", "/llms.txt", "/_site/x", "/oauth/consent", "/api/health/x", "/api/healthy"]) expect(re.test(p), p).toBe(true);
    for (const p of ["/admin/graphql", "/mcp", "/api/oauth/token", "/api/auth/callback/credentials", "/oauth/authorize", "/api/account/set-password", "/api/checkout", "/api/checkout/test/cs_test_0", "/_next/static/x.js", "/api/health"]) expect(re.test(p), p).toBe(false);
  });

  // Issue 30, item 2: what the proxy has nothing for skips it, and only that.
  it("leaves out exactly the route table's skipsProxy paths, with a body of any size", () => {
    const table = ROUTES as Record<RoutePath, Endpoint>;
    const paths = Object.keys(table) as RoutePath[];
    const meets = (p: string) => entries.some((e) => toRegExp(typeof e === "string" ? e : e.source).test(p));
    const skipped = paths.filter((p) => table[p].skipsProxy);
    expect(skipped).toEqual(expect.arrayContaining(["/api/bench/baseline", "/api/oauth/token", "/api/oauth/introspect", "/api/health"]));
    for (const p of skipped) {
      expect(p, "a fixed path").not.toMatch(/\[/);
      expect(table[p].proxy, `${p} is answered in the proxy`).toBeUndefined();
      expect(meets(p), p).toBe(false);
      // Anything else at that address meets the proxy (and its edge guard) as before.
      for (const other of [`${p}/`, `${p}x`, `${p}/x`, `${p}%zz`, `${p}%00`, `${p}.json`, `/x${p}`]) expect(meets(other), other).toBe(true);
    }
    // Every other endpoint meets it (those with a body, when the body is within their limit).
    const sample = (p: string) => p.replace(/\[\[?(?:\.\.\.)?\w+\]\]?/g, "x");
    for (const p of paths.filter((p) => !table[p].skipsProxy)) expect(meets(sample(p)), p).toBe(true);
  });

  it("matches the body-reading endpoints unless the body is declared past their limit or chunked", () => {
    const [large, forms] = conditional;
    for (const e of conditional) expect(typeof e !== "string" && e.missing.some((m) => m.key === "transfer-encoding" && !m.value)).toBe(true);
    const limitOf = [
      [large!, Math.max(ADMIN_MAX_BODY_BYTES, MCP_MAX_BODY_BYTES), ["/admin/graphql", "/mcp"]],
      // 8 KiB: the smallest limit among the form endpoints (set-password), at most theirs (16 KiB).
      [forms!, 8 * 1024, ["/api/oauth/unknown", "/api/auth/callback/credentials", "/oauth/authorize", "/api/account/set-password", "/api/checkout", "/api/checkout/test/cs_test_0"]],
    ] as const;
    expect(ADMIN_MAX_BODY_BYTES).toBe(MCP_MAX_BODY_BYTES);
    expect(8 * 1024).toBeLessThanOrEqual(MAX_OAUTH_BODY_BYTES);
    for (const [entry, limit, paths] of limitOf) {
      const source = toRegExp((entry as Exclude<Entry, string>).source);
      for (const p of paths) expect(source.test(p), p).toBe(true);
      const declared = declaredPattern(entry);
      for (let n = 0; n <= limit + 5000; n += n < limit - 5000 ? 997 : 1) expect(declared.test(String(n)), String(n)).toBe(n > limit);
      for (const big of ["99999999999999999999", `00${limit + 1}`, "30000000"]) expect(declared.test(big), big).toBe(true);
      expect(declared.test(`00${limit}`)).toBe(false);
    }
  });
});
