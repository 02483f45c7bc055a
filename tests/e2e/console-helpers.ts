import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type Page } from "@playwright/test";
import { DEFAULT_DEMO_PASSWORD } from "../../lib/demo-secrets";
import { baseURL } from "../../playwright.config";

// What the staff console's specs (console.spec.ts, console-settings.spec.ts) share: the demo
// password, signing a staff member in through the login page at the console's 390 px, and the
// checks every page passes (axe-core, no sideways scrolling).

/** The demo members' password (the e2e server seeds the demo schools with it). */
export const PASSWORD = DEFAULT_DEMO_PASSWORD;

export async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/**
 * The page, once loaded, needs no sideways scrolling at `max` px. Measured after the load event (its
 * stylesheet applied) and again for up to 5 s while the layout settles; a page that stays too wide
 * fails with the elements that stick out, so the failure names its cause.
 */
export async function expectFits(page: Page, max = 390) {
  await page.waitForLoadState("load");
  const measure = () =>
    page.evaluate((limit) => {
      const width = document.documentElement.scrollWidth;
      const wide = width <= limit ? [] : [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > limit).slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`);
      return { width, wide };
    }, max);
  let last = await measure();
  await expect.poll(async () => (last = await measure()).width, { timeout: 5_000, message: `wider than ${max} px: ${JSON.stringify(last.wide)}` }).toBeLessThanOrEqual(max);
}

/**
 * A fresh browser at 390 px (or `width`), signed in as `email` through the login page, on `path`;
 * with `landsOnPath`, it waits until the address is `path` (a page that sends a role elsewhere, such
 * as a teacher's console home, is left to the caller). `base` and `password`: a spec's own server.
 */
export async function staffBrowser(
  browser: Browser,
  email: string,
  path = "/manage",
  opts: { javaScript?: boolean; landsOnPath?: boolean; base?: string; width?: number; password?: string } = {},
) {
  const context = await browser.newContext({ baseURL: opts.base ?? baseURL, viewport: { width: opts.width ?? 390, height: 800 }, javaScriptEnabled: opts.javaScript ?? true });
  const page = await context.newPage();
  await page.goto(`/login?callbackUrl=${encodeURIComponent(path)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(opts.password ?? PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (opts.landsOnPath) await expect(page).toHaveURL(new RegExp(`${path.replace(/[/?]/g, "\\$&")}$`));
  return { context, page };
}
