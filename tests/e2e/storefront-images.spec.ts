// Issue 29 item 10: the storefront shows the school's logo, favicon, course, post and event covers
// and lecturer photos from its content (served by the app at /media/…, raster images resized there
// for next/image's srcset), never a broken image (initials stand in for a picture that is missing
// or fails), keeps the footer at the bottom of a short page, and names the agents' entry points in
// <head> instead of the human footer.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PAGES } from "./storefront-helpers";

const IMAGE_PAGES = [
  ...PAGES.map((p) => p.html),
  "/courses/python-for-data-analysis", "/courses/product-photography-basics", "/courses/writing-for-the-web",
  "/lecturers/mei-ling-wu", "/lecturers/grace-adeyemi",
  "/posts/window-light-setup", "/posts/spring-schedule", "/events/sql-office-hours-december", "/events/portfolio-review-night",
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

  test("a raster image of the school (PNG) is served resized for the srcset and decodes", async ({ page, request }) => {
    await page.goto("/lecturers/grace-adeyemi");
    const src = (await page.locator("img.portrait").getAttribute("src"))!;
    expect(src).toMatch(/\/media\/[0-9a-f]{64}\/grace-adeyemi\.png\?w=256&q=75$/);
    expect((await images(page)).filter((i) => !i.ok)).toEqual([]);
    const res = await request.get(src, { headers: { accept: "image/png" } });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
  });

  test("a post's and an event's cover: every srcset URL works, smaller widths weigh less, 320 px loads a small one", async ({ page, request }) => {
    for (const [path, alt] of [["/posts/five-sql-mistakes", "Cover of Five SQL mistakes that double-count your revenue"], ["/events/studio-lighting-workshop", "Cover of Studio lighting workshop"]] as const) {
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(path);
      const cover = page.locator("img.document-image");
      await expect(cover).toHaveAttribute("alt", alt);
      const srcset = (await cover.getAttribute("srcset"))!;
      const entries = srcset.split(", ").map((e) => {
        const [url, w] = e.split(" ");
        return { url: url!, width: Number(w!.replace(/w$/, "")) };
      });
      expect(entries.length).toBeGreaterThan(3);
      let previous = 0;
      for (const { url, width } of entries.sort((a, b) => a.width - b.width)) {
        expect(url).toMatch(new RegExp(`^(https?://[^/]+)?/media/[0-9a-f]{64}/[a-z-]+\\.jpg\\?w=${width}&q=75$`));
        const res = await request.get(url, { headers: { accept: "image/avif,image/webp,*/*" } });
        expect(res.status(), url).toBe(200);
        expect(res.headers()["content-type"], url).toBe("image/webp");
        expect(res.headers()["cache-control"], url).toBe("public, max-age=31536000, immutable");
        const bytes = (await res.body()).length;
        // Widths past the stored 1280 px are never enlarged: the same rendition, the same weight.
        if (width <= 1280) expect(bytes, url).toBeGreaterThan(previous);
        previous = bytes;
      }
      const loaded = await cover.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, natural: img.naturalWidth }));
      expect(loaded.natural).toBeGreaterThan(0);
      expect(Number(/[?&]w=(\d+)/.exec(loaded.src)![1])).toBeLessThanOrEqual(828);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    }
  });

  test("a hostile width or quality is a plain 400", async ({ page, request }) => {
    await page.goto("/posts/five-sql-mistakes");
    const src = (await page.locator("img.document-image").getAttribute("src"))!.replace(/\?.*$/, "");
    for (const q of ["w=641", "w=-1", "w=640&q=101", "w=1e9", "w=640&w=32"]) {
      const res = await request.get(`${src}?${q}`);
      expect(res.status(), q).toBe(400);
      expect(res.headers()["content-type"], q).toBe("text/plain; charset=utf-8");
    }
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
