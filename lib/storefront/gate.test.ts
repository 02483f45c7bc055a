import { describe, expect, it } from "vitest";
import { forbiddenHtml, forbiddenMarkdown, loginPath, storefrontAccess } from "./gate";

const session = { userId: "u1", email: "a@b.test", name: "A", sessionId: "00000000-0000-4000-8000-000000000001", signedInAt: new Date(0) };
const gated = { id: "s1", enterpriseTraining: true };

describe("storefrontAccess", () => {
  it("does not read the session on public schools", async () => {
    let read = false;
    const access = await storefrontAccess({ school: { id: "s1", enterpriseTraining: false }, session: async () => ((read = true), session) });
    expect(access).toEqual({ kind: "open" });
    expect(read).toBe(false);
  });

  it("anonymous, member and non-member on an enterprise-training school", async () => {
    expect(await storefrontAccess({ school: gated, session: async () => null })).toEqual({ kind: "anonymous" });
    expect(await storefrontAccess({ school: gated, session: async () => session, isMember: async () => true })).toEqual({ kind: "member", session });
    const asked: unknown[] = [];
    const access = await storefrontAccess({ school: gated, session: async () => session, isMember: async (o) => (asked.push(o), false) });
    expect(access).toEqual({ kind: "not_member", session });
    expect(asked).toEqual([{ schoolId: "s1", userId: "u1" }]);
  });
});

describe("loginPath", () => {
  it("carries the page as a relative callbackUrl", () => {
    expect(loginPath("/courses/x?a=1&b=2")).toBe("/login?callbackUrl=%2Fcourses%2Fx%3Fa%3D1%26b%3D2");
    expect(loginPath("//evil.test/x")).toBe("/login?callbackUrl=%2F");
    expect(loginPath("https://evil.test/")).toBe("/login?callbackUrl=%2F");
  });
});

describe("403 pages", () => {
  it("escape the school name and email", () => {
    const html = forbiddenHtml({ schoolName: "<b>Acme</b>", email: '"x"@y.test<script>', loginPath: "/login?callbackUrl=%2F", origin: "https://acme.test" });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;b&gt;Acme&lt;/b&gt;");
    expect(html).toContain("&quot;x&quot;@y.test&lt;script&gt;");
  });

  it("in markdown: the one error-document shape, with absolute links, and the school name as text", () => {
    const md = forbiddenMarkdown({ schoolName: "<b>Acme</b> [x](javascript:y)", email: "x@y.test", loginPath: "/login?callbackUrl=%2Ffaq", origin: "https://acme.test" });
    expect(md).toMatch(/^---\ntype: "error"\nstatus: 403\ntitle: "Members only"\nmessage: ".*"\n---\n\n# Members only\n/);
    expect(md).toContain("[Sign in with another account](https://acme.test/login?callbackUrl=%2Ffaq)");
    expect(md).toContain("[homepage](https://acme.test/api/md/home)");
    expect(md).toContain("\\<b\\>Acme\\</b\\> \\[x\\](javascript:y)");
    expect(md).not.toMatch(/\]\(\//);
  });
});
