// Issue 29 item 10: the storefront shows the school's logo, favicon, course covers and lecturer
// photos from its content (served by the app at /media/…), never a broken image (initials stand in
// for a picture that is missing or fails), keeps the footer at the bottom of a short page, and
// names the agents' entry points in <head> instead of the human footer.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PAGES } from "./storefront-helpers";

const IMAGE_PAGES = [
  ...PAGES.map((p) => p.html),
  "/courses/python-for-data-analysis", "/courses/product-photography-basics", "/courses/writing-for-the-web",
  "/lecturers/mei-ling-wu", "/lecturers/grace-adeyemi",
];

/** Every <img> of the page after it loaded: its address and whether it decoded (naturalWidth > 0). */
async function images(page: Page) {
  await page.waitForLoadState("load");
  return page.$$eval("img", (imgs) => imgs.map((i) => ({ src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0 })));
}

async function axeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe("storefront images", () => {
  for (const path of IMAGE_PAGES) {
    test(`${path}: the logo and every image load, at 320 px, no axe-core violations`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 });
      expect((await page.goto(path))?.status()).toBe(200);
      const imgs = await images(page);
      expect(imgs.filter((i) => !i.ok)).toEqual([]);
      // The header's logo is the school's own image, served by the app.
      expect(imgs.some((i) => /\/media\/[0-9a-f]{64}\/logo\.svg$/.test(i.src))).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      expect(await axeViolations(page)).toEqual([]);
    });
  }

  test("a course shows its cover and a lecturer their photo, from /media/, cached immutable", async ({ page, request }) => {
    await page.goto("/courses/intro-to-sql");
    const cover = page.locator("img.document-image");
    await expect(cover).toHaveAttribute("alt", "Cover of Intro to SQL");
    const src = (await cover.getAttribute("src"))!;
    expect(src).toMatch(/\/media\/[0-9a-f]{64}\/intro-to-sql\.svg$/);
    const res = await request.get(src);
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto("/lecturers/tomas-rivera");
    await expect(page.locator("img.portrait")).toHaveAttribute("alt", "Photo of Tomás Rivera");
    expect((await images(page)).every((i) => i.ok)).toBe(true);
    await page.screenshot({ path: "test-results/storefront-lecturer-320.png", fullPage: true });
  });

  test("a raster image of the school (PNG) is served as stored and decodes", async ({ page, request }) => {
    await page.goto("/lecturers/grace-adeyemi");
    const src = (await page.locator("img.portrait").getAttribute("src"))!;
    expect(src).toMatch(/\/media\/[0-9a-f]{64}\/grace-adeyemi\.png$/);
    expect((await images(page)).filter((i) => !i.ok)).toEqual([]);
    const res = await request.get(src);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
  });

  test("an image that fails to load is replaced by initials, never shown broken", async ({ page }) => {
    await page.route(/\/media\/[0-9a-f]{64}\/(tomas-rivera|logo)\.svg$/, (route) => route.fulfill({ status: 500, body: "" }));
    await page.goto("/lecturers/tomas-rivera");
    await expect(page.locator(".portrait.initials")).toHaveText("TR");
    await expect(page.locator(".portrait.initials")).toHaveAttribute("aria-label", "Photo of Tomás Rivera");
    await expect(page.locator(".brand-logo.initials")).toHaveText("SA");
    expect((await images(page)).filter((i) => !i.ok)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  test("the favicon is the school's, named in <head>", async ({ page, request }) => {
    await page.goto("/faq");
    const href = (await page.locator('head link[rel="icon"]').getAttribute("href"))!;
    expect(href).toMatch(/\/media\/[0-9a-f]{64}\/favicon\.svg$/);
    const res = await request.get(href);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/svg+xml");
  });

  test("on a short page the footer sits at the bottom of the window", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 1400 });
    await page.goto("/plans/monthly");
    const box = (await page.locator("footer.site-footer").boundingBox())!;
    expect(Math.abs(box.y + box.height - 1400)).toBeLessThanOrEqual(1);
    await page.screenshot({ path: "test-results/storefront-short-page.png" });
  });

  test("agents find llms.txt and the OpenAPI document in <head>; the footer is for people", async ({ page, request }) => {
    await page.goto("/");
    await expect(page.locator("footer.site-footer")).not.toContainText("llms.txt");
    await expect(page.locator("footer.site-footer")).not.toContainText("OpenAPI");
    const llms = (await page.locator('head link[rel="alternate"][href="/llms.txt"]').getAttribute("type"))!;
    expect(llms).toBe("text/plain");
    await expect(page.locator('head link[rel="service-desc"]')).toHaveAttribute("href", "/openapi.json");
    for (const p of ["/llms.txt", "/openapi.json"]) expect((await request.get(p)).status(), p).toBe(200);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/courses/intro-to-sql");
    await page.screenshot({ path: "test-results/storefront-course.png", fullPage: true });
  });
});
