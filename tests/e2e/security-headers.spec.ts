import { expect, test } from "@playwright/test";

// Login, school picker, consent and the Admin playground must refuse to be framed.
for (const path of ["/login", "/login?callbackUrl=%2F", "/oauth/consent", "/oauth/select-school", "/admin/graphql"]) {
  test(`${path} refuses framing`, async ({ request }) => {
    const res = await request.get(path, { headers: { accept: "text/html" }, maxRedirects: 0 });
    expect(res.headers()["x-frame-options"]).toBe("DENY");
    expect(res.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
}
