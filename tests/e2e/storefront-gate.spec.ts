import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { parseMarkdown } from "./storefront-helpers";

// Acme Corp Training is the demo's enterprise-training school: pages for members only.
const acmeHost = (baseURL: string | undefined) => `acme-training.localhost:${new URL(baseURL!).port}`;
const acme = (baseURL: string | undefined, path = "/") => `http://${acmeHost(baseURL)}${path}`;

// Playwright's API client resolves names itself and knows no *.localhost: address the server and
// name the school in the Host header.
const acmeGet = (request: APIRequestContext, baseURL: string | undefined, path: string, headers: Record<string, string> = {}) =>
  request.get(`${baseURL}${path}`, { headers: { host: acmeHost(baseURL), ...headers }, maxRedirects: 0 });

/** fetch() inside the signed-in browser page (its cookies, no redirects followed). */
const browserGet = (page: Page, url: string, accept?: string) =>
  page.evaluate(
    async ({ url, accept }) => {
      const res = await fetch(url, { headers: accept ? { accept } : {}, redirect: "manual" });
      return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
    },
    { url, accept },
  );

async function signIn(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
}

test.describe("enterprise-training gate", () => {
  for (const [path, accept] of [
    ["/", undefined],
    ["/courses/security-awareness", undefined],
    ["/courses/security-awareness", "text/markdown"],
    ["/courses/no-such-course", undefined],
    ["/faq", "text/markdown, text/html"],
    ["/lecturers?x=1", undefined],
  ] as const) {
    test(`anonymous ${path} (${accept ?? "html"}) is redirected to the login page`, async ({ request, baseURL }) => {
      const res = await acmeGet(request, baseURL, path, accept ? { accept } : {});
      expect(res.status()).toBe(307);
      expect(res.headers()["location"]).toBe(acme(baseURL, `/login?callbackUrl=${encodeURIComponent(path)}`));
      expect(res.headers()["cache-control"]).toBe("private, no-store");
      expect(await res.text()).not.toContain("Security Awareness");
    });
  }

  test("markdown endpoints, llms files and openapi.json stay readable without a session", async ({ request, baseURL }) => {
    const md = await acmeGet(request, baseURL, "/api/md/courses/security-awareness");
    expect(md.status()).toBe(200);
    expect(parseMarkdown(await md.text()).data.title).toBe("Security Awareness 2026");
    for (const path of ["/api/md/home", "/llms.txt", "/llms-full.txt", "/openapi.json"]) {
      expect((await acmeGet(request, baseURL, path)).status(), path).toBe(200);
    }
  });

  test("a public school's pages are not gated", async ({ request }) => {
    expect((await request.get("/courses/intro-to-sql", { maxRedirects: 0 })).status()).toBe(200);
    expect((await request.get("/courses/intro-to-sql", { headers: { accept: "text/markdown" }, maxRedirects: 0 })).status()).toBe(200);
  });

  test("a member signs in and gets the page back, then its markdown by negotiation", async ({ page, baseURL }) => {
    await page.goto(acme(baseURL, "/courses/security-awareness"));
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fcourses%2Fsecurity-awareness/);
    await signIn(page, "employee@schoolhouse.test");
    await expect(page).toHaveURL(acme(baseURL, "/courses/security-awareness"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Security Awareness 2026");
    await expect(page.getByRole("link", { name: "Acme Corp Training" })).toBeVisible();

    const md = await browserGet(page, "/courses/security-awareness", "text/markdown");
    expect(md.status).toBe(200);
    expect(md.headers["cache-control"]).toBe("private, no-cache");
    expect(md.headers["vary"]).toMatch(/Cookie/);
    expect(parseMarkdown(md.text).data.title).toBe("Security Awareness 2026");
  });

  test("a signed-in user who is not a member gets a 403 page, in markdown when asked", async ({ page, baseURL }) => {
    await page.goto(acme(baseURL, "/login?callbackUrl=%2Fcourses"));
    await signIn(page, "student@schoolhouse.test");
    await expect(page).toHaveURL(acme(baseURL, "/courses"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Members only");
    await expect(page.getByText("student@schoolhouse.test")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in with another account" })).toHaveAttribute("href", "/login?callbackUrl=%2Fcourses");

    const res = await browserGet(page, "/courses/security-awareness");
    expect(res.status).toBe(403);
    expect(res.text).not.toContain("Security Awareness");
    const md = await browserGet(page, "/courses", "text/markdown");
    expect(md.status).toBe(403);
    expect(md.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(parseMarkdown(md.text).data).toMatchObject({ type: "error", status: 403, title: "Members only" });
    // Links an agent can follow from wherever it read the document: absolute, on the school's origin.
    expect(md.text).toContain(`[Sign in with another account](${acme(baseURL, "/login?callbackUrl=%2Fcourses")})`);
    for (const [, target] of md.text.matchAll(/\]\(([^)]*)\)/g)) expect(target).toMatch(/^https?:\/\//);
  });
});
