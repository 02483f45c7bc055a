// The HTML page cache (lib/storefront/page-cache.ts, docs/decisions.md "HTML page cache"): pages
// are rendered once per key and served from Next's incremental cache, the enterprise gate is still
// decided per request, nothing about the visitor is shared (a signed-in member's page, which names
// them, is rendered per request), the rendering route cannot be reached
// from outside, and a content change shows within the content cache's bound.
import pg from "pg";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createSpecDatabase, startProductionServer, type ProductionServer, type SpecDatabase } from "./next-server";

const acmeHost = (baseURL: string | undefined) => `acme-training.localhost:${new URL(baseURL!).port}`;
const acme = (baseURL: string | undefined, p = "/") => `http://${acmeHost(baseURL)}${p}`;
const GATED = "/courses/security-awareness";
const GATED_TITLE = "Security Awareness 2026";

/** fetch() inside a page (its cookies, no redirects followed). */
const browserGet = (page: Page, url: string) =>
  page.evaluate(async (url) => {
    const res = await fetch(url, { redirect: "manual" });
    return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
  }, url);

async function signedIn(browser: Browser, baseURL: string | undefined, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(acme(baseURL, `/login?callbackUrl=${encodeURIComponent("/faq")}`));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/faq$/);
  return page;
}

test.describe("HTML page cache", () => {
  test("a page is rendered once, then served from the cache with the storefront's headers", async ({ request, baseURL }) => {
    const first = await request.get("/courses/intro-to-sql");
    expect(first.status()).toBe(200);
    const again = await request.get("/courses/intro-to-sql");
    expect(again.status()).toBe(200);
    expect(again.headers()["x-nextjs-cache"]).toBe("HIT");
    expect(await again.text()).toContain("Intro to SQL");
    // Still kept out of every cache (a gated school's page must never reach a shared one).
    expect(again.headers()["cache-control"]).toBe("private, no-cache, no-store, max-age=0, must-revalidate");
    expect(again.headers()["link"]).toContain(`<${baseURL}/api/md/courses/intro-to-sql>; rel="alternate"; type="text/markdown"`);
    expect(again.headers()["content-signal"]).toBe("search=yes, ai-input=yes, ai-train=no");
  });

  test("the rendering route answers 404 from outside, however it is spelled", async ({ request }) => {
    const res = await request.get("/courses/intro-to-sql");
    const internal = res.headers()["x-middleware-rewrite"];
    expect(internal).toMatch(/^\/_site\/[^/]+\/courses\/intro-to-sql$/);
    const rest = internal!.slice("/_site".length);
    for (const p of [internal!, `/%5Fsite${rest}`, `/%5fsite${rest}`, `/_SITE${rest}`, `/_site/x.1.aHR0cDovL2E.${"a".repeat(22)}.${"b".repeat(22)}/courses/intro-to-sql`, "/_site"]) {
      const direct = await request.get(p, { maxRedirects: 0 });
      expect(direct.status(), p).toBe(404);
      expect(await direct.text(), p).not.toContain("Intro to SQL");
    }
  });

  test("a gated page for members: each member's page names only them and is never the shared cached one; anonymous and non-members are still refused", async ({ browser, request, baseURL }) => {
    const dana = await signedIn(browser, baseURL, "employee@schoolhouse.test");
    const rin = await signedIn(browser, baseURL, "multi@schoolhouse.test");
    const student = await signedIn(browser, baseURL, "student@schoolhouse.test");

    // A signed-in member's page names them in its header (docs/decisions.md, "Who is signed in, on
    // cached pages"): rendered per request, not through the page cache, so nothing of one member
    // reaches another, in either order and on repeated requests.
    for (let round = 0; round < 2; round++) {
      const forDana = await browserGet(dana, GATED);
      const forRin = await browserGet(rin, GATED);
      for (const [page, own, other] of [
        [forDana, "Dana Whitfield", "Rin Takeda"],
        [forRin, "Rin Takeda", "Dana Whitfield"],
      ] as const) {
        expect(page.status).toBe(200);
        expect(page.text).toContain(GATED_TITLE);
        expect(page.text).toContain(own);
        expect(page.text).not.toContain(other);
        expect(page.headers["x-middleware-rewrite"]).toBeUndefined();
        expect(page.headers["x-nextjs-cache"]).toBeUndefined();
        expect(page.headers["cache-control"]).toContain("no-store");
      }
    }

    // The gate still runs first.
    const anonymous = await request.get(`${baseURL}${GATED}`, { headers: { host: acmeHost(baseURL) }, maxRedirects: 0 });
    expect(anonymous.status()).toBe(307);
    expect(await anonymous.text()).not.toContain(GATED_TITLE);
    const outsider = await browserGet(student, GATED);
    expect(outsider.status).toBe(403);
    expect(outsider.text).not.toContain(GATED_TITLE);
  });
});

// A content change through the database (as an import or the Admin API writes it): the content
// version trigger moves, the page's key changes, and the new page shows within
// STOREFRONT_REVALIDATE_MS (1 s by default) plus one rendering.
const adminUrl = process.env.TEST_DATABASE_URL;
const port = Number(process.env.E2E_PORT ?? 3100) + 2;
const origin = `http://localhost:${port}`;
test.describe("HTML page cache after a content change", () => {
  test.skip(!adminUrl, "needs TEST_DATABASE_URL: the test writes content behind the server's back");
  let database: SpecDatabase | undefined;
  let server: ProductionServer | undefined;
  let dbUrl = "";

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    database = await createSpecDatabase({ adminUrl: adminUrl!, prefix: "sh_e2e_pagecache" });
    dbUrl = database.url;
    server = await startProductionServer({ port, databaseUrl: dbUrl, env: { AUTH_SECRET: "page-cache-e2e-secret-page-cache-e2e-secret" } });
  });

  test.afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("a changed course shows on its cached page within the content cache's bound", async ({ page }) => {
    const h1 = async () => /<h1[^>]*>([^<]+)<\/h1>/.exec(await (await fetch(`${origin}/courses/intro-to-sql`)).text())?.[1];
    expect(await h1()).toBe("Intro to SQL");
    const cached = await fetch(`${origin}/courses/intro-to-sql`);
    expect(cached.headers.get("x-nextjs-cache")).toBe("HIT");

    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    try {
      await db.query(`UPDATE "Course" SET title = 'Intro to SQL, revised' WHERE slug = 'intro-to-sql'`);
    } finally {
      await db.end();
    }
    const changedAt = performance.now();
    await expect.poll(h1, { timeout: 5_000, intervals: [50] }).toBe("Intro to SQL, revised");
    // 1 s of trusted version, one rendering and the polling interval.
    expect(performance.now() - changedAt).toBeLessThan(2_500);
    // Its markdown twin and llms-full.txt, answered by the proxy from the content cache, too.
    const mdTitle = async () => /^title: "([^"]+)"/m.exec(await (await fetch(`${origin}/api/md/courses/intro-to-sql`)).text())?.[1];
    await expect.poll(mdTitle, { timeout: 2_500, intervals: [50] }).toBe("Intro to SQL, revised");
    expect(await (await fetch(`${origin}/llms-full.txt`)).text()).toContain("Intro to SQL, revised");
    // The pages that list the course show the change too, and a browser sees it.
    expect(await (await fetch(`${origin}/courses`)).text()).toContain("Intro to SQL, revised");
    await page.goto(`${origin}/courses/intro-to-sql`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Intro to SQL, revised");
    expect(server!.server.output()).not.toMatch(/\n\s+at /);
  });
});
