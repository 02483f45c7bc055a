import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { PAGES, markdownOf } from "./storefront-helpers";

const meta = (page: Page, key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).first().getAttribute("content");
const jsonLd = async (page: Page) => JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<string, Record<string, unknown>>;

test.describe("storefront HTML pages", () => {
  for (const p of PAGES) {
    test(`${p.html}: same title as its markdown, alternate link, JSON-LD`, async ({ page, request, baseURL }) => {
      const md = await markdownOf(request, p.md);
      const res = await page.goto(p.html);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(String(md.data.title));
      const alternate = page.locator('link[rel="alternate"][type="text/markdown"]');
      await expect(alternate).toHaveAttribute("href", `${baseURL}${p.md}`);
      expect(md.data.url).toBe(`${baseURL}${p.html === "/" ? "/" : p.html}`);
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
      expect(ld["@context"]).toBe("https://schema.org");
      expect(ld["@type"]).toBe(p.jsonLd);
    });

    test(`${p.html}: Open Graph and Twitter card, no axe-core violations, fits a 320 px phone`, async ({ page, request, baseURL }) => {
      const md = await markdownOf(request, p.md);
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(p.html);
      expect(await meta(page, "og:title")).toBe(String(md.data.title));
      expect(await meta(page, "og:description")).toBe(String(md.data.description));
      expect(await meta(page, "og:url")).toBe(`${baseURL}${p.html === "/" ? "/" : p.html}`);
      expect(await meta(page, "og:site_name")).toBe("Schoolhouse Demo Academy");
      expect(await meta(page, "og:type")).toBe(p.jsonLd === "BlogPosting" ? "article" : "website");
      expect(await meta(page, "twitter:card")).toMatch(/^summary(_large_image)?$/);
      expect(await meta(page, "twitter:title")).toBe(String(md.data.title));
      // No horizontal scrolling: nothing is wider than the viewport.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  }

  test("JSON-LD has what Google asks for: Course offers and hasCourseInstance, Event offers and location, Product offers, Person", async ({ page }) => {
    await page.goto("/courses/intro-to-sql");
    const course = await jsonLd(page);
    expect(course).toMatchObject({ "@type": "Course", name: "Intro to SQL", provider: { "@type": "Organization" } });
    expect(course.description).toBeTruthy();
    expect(course.offers).toMatchObject({ "@type": "Offer", category: "Paid", price: "49.00", priceCurrency: "USD" });
    expect(course.hasCourseInstance).toMatchObject({ "@type": "CourseInstance", courseMode: "Online", courseWorkload: "PT360M" });

    await page.goto("/events/studio-lighting-workshop");
    const event = await jsonLd(page);
    expect(event).toMatchObject({ "@type": "Event", eventStatus: "https://schema.org/EventScheduled" });
    for (const key of ["name", "startDate", "endDate", "location", "offers", "organizer"]) expect(event[key], key).toBeTruthy();
    expect(event.offers!["@type"]).toBe("Offer");

    await page.goto("/digital-downloads/lightroom-presets");
    const product = await jsonLd(page);
    expect(product).toMatchObject({ "@type": "Product", sku: "lightroom-presets", offers: { "@type": "Offer", seller: { "@type": "Organization" } } });

    await page.goto("/lecturers/tomas-rivera");
    const person = await jsonLd(page);
    expect(person).toMatchObject({ "@type": "Person", name: "Tomás Rivera", worksFor: { "@type": "Organization" } });
  });

  test("a visitor in Chromium sees the course: title, price, lecturer, body, and can follow links", async ({ page, request }) => {
    const md = await markdownOf(request, "/api/md/courses/intro-to-sql");
    await page.goto("/courses/intro-to-sql");
    await expect(page).toHaveTitle("Intro to SQL · Schoolhouse Demo Academy");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Intro to SQL");
    await expect(page.locator("[data-fact=price] dd")).toHaveText(`${md.data.price} ${md.data.currency}`);
    await expect(page.locator("[data-fact=level] dd")).toHaveText(String(md.data.level));
    await expect(page.getByRole("heading", { level: 2, name: "What you will learn" })).toBeVisible();
    await expect(page.locator("pre code.language-sql")).toContainText("GROUP BY country");
    const lecturers = md.data.lecturers as Array<{ name: string }>;
    await page.getByRole("link", { name: lecturers[0]!.name }).click();
    await expect(page).toHaveURL(/\/lecturers\/tomas-rivera$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tomás Rivera");
    await page.getByRole("link", { name: "Courses", exact: true }).first().click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect(page.getByRole("link", { name: "Intro to SQL" })).toBeVisible();
    await expect(page.getByText("Advanced Dashboards")).toHaveCount(0);
  });

  test("facts match the markdown: event dates with offsets, plan and download prices", async ({ page, request }) => {
    const event = await markdownOf(request, "/api/md/events/sql-office-hours-december");
    await page.goto("/events/sql-office-hours-december");
    await expect(page.locator("[data-fact=start] time")).toHaveAttribute("datetime", String(event.data.start));
    await expect(page.locator("[data-fact=end] time")).toHaveAttribute("datetime", String(event.data.end));
    expect(event.data.start).toBe("2026-12-10T12:00:00-05:00");
    await expect(page.locator("[data-fact=timezone] dd")).toHaveText("America/New_York");

    const plan = await markdownOf(request, "/api/md/plans/summer-cohort-2027");
    await page.goto("/plans/summer-cohort-2027");
    await expect(page.locator("[data-fact=price] dd")).toHaveText(`${plan.data.price} ${plan.data.currency}`);
    await expect(page.locator("[data-fact=ends] time")).toHaveAttribute("datetime", String(plan.data.ends));
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(ld.offers).toMatchObject({ "@type": "Offer", price: plan.data.price, priceCurrency: plan.data.currency });

    const download = await markdownOf(request, "/api/md/digital-downloads/sql-cheat-sheet");
    await page.goto("/digital-downloads/sql-cheat-sheet");
    await expect(page.locator("[data-fact=price] dd")).toHaveText(`Free (${download.data.price} ${download.data.currency})`);

    const post = await markdownOf(request, "/api/md/posts/five-sql-mistakes");
    await page.goto("/posts/five-sql-mistakes");
    await expect(page.locator("[data-fact=published] time")).toHaveAttribute("datetime", String(post.data.published));
  });

  test("the home page lists published content only", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Learn skills that ship");
    await expect(page.locator("[data-section=courses] li")).toHaveCount(4);
    await expect(page.locator("[data-section=plans] li")).toHaveCount(4);
    await expect(page.getByText("Legacy Annual")).toHaveCount(0);
    await expect(page.getByText("Unannounced partnership")).toHaveCount(0);
  });

  for (const path of ["/courses/no-such-course", "/courses/advanced-dashboards", "/plans/legacy-annual", "/posts/unannounced-partnership", "/lecturers/Bad_Slug", "/events/nope", "/categories/nope", "/digital-downloads/nope"]) {
    test(`${path} is the 404 page`, async ({ page }) => {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
    });
  }
});
