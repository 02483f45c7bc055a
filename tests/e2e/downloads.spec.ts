// A digital download bought on the storefront and downloaded from the account page, in Chromium
// (docs/decisions.md, "Digital download files"): the download's page, its review page, the test
// provider's page with the succeeding test card, the confirmation (signed in as the new account),
// then "Your downloads" on /account/courses and its Download link: the browser saves the file, byte
// for byte the demo content's, and stays on the page. Another browser (signed out) is sent to sign
// in. Every page: axe-core 0 violations, 320 px wide.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";

const PRESETS = "5c400000-0000-4000-8000-000a00000002";
const DEMO_FILE = path.resolve(import.meta.dirname, "../../content/demo/files/catalog-presets.zip");

async function checkPage(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
}

test("buy a download with the test card, then download its file from the account page (axe, 320 px)", async ({ browser }) => {
  test.setTimeout(120_000);
  const email = `download.${randomBytes(4).toString("hex")}@example.com`;
  const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 700 }, acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.goto("/digital-downloads/lightroom-presets");
    await page.getByRole("link", { name: "Buy Catalog Lightroom presets" }).click();
    await expect(page).toHaveURL(`${baseURL}/checkout/digital-downloads/lightroom-presets`);
    await expect(page.locator("main")).toContainText("19.00 USD");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Your name").fill("Download Buyer");
    await page.getByRole("button", { name: "Buy now" }).click();
    await expect(page).toHaveURL(/\/checkout\/test\/cs_test_/);
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay/ }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\//);
    await expect(page.getByRole("status")).toContainText("Catalog Lightroom presets is yours");

    // Signed in by the checkout: the download is under "Your downloads", with its file's name and size.
    await page.getByRole("link", { name: "Your courses and downloads" }).click();
    await expect(page).toHaveURL(/\/account\/courses/);
    const downloads = page.getByRole("region", { name: "Your downloads" });
    await expect(downloads).toContainText("catalog-presets.zip");
    await checkPage(page);

    const link = downloads.getByRole("link", { name: "Download Catalog Lightroom presets" });
    await expect(link).toHaveAttribute("href", `/account/downloads/${PRESETS}`);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("catalog-presets.zip");
    const saved = await readFile((await download.path())!);
    expect(saved.equals(await readFile(DEMO_FILE))).toBe(true);
    // An attachment: the browser saved it and stayed on the account page.
    await expect(page).toHaveURL(/\/account\/courses/);
    await checkPage(page);
  } finally {
    await context.close();
  }

  // The same address in a browser with nobody signed in: the login page, coming back to the file.
  const visitor = await browser.newContext({ baseURL, viewport: { width: 320, height: 700 } });
  try {
    const page = await visitor.newPage();
    await page.goto(`/account/downloads/${PRESETS}`);
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(`/account/downloads/${PRESETS}`);
    await checkPage(page);
  } finally {
    await visitor.close();
  }
});
