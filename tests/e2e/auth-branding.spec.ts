import { createHash } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { DEMO_IDS } from "../../lib/startup/seed/demo-data";

// Login, school picker and consent carry the school's name and accent colour, and the login page
// names the application asking when it continues an authorization request (issue 18).
const VERIFIER = "e2e-branding-verifier-0123456789-abcdefghijklmnop";
const REDIRECT = "http://127.0.0.1:49152/callback";
const ACME_ACCENT = "rgb(11, 110, 79)"; // content/acme-training/school.yaml brandColor #0b6e4f

function authorizePath(extra: Record<string, string> = {}) {
  return `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: "demo-public-app",
    redirect_uri: REDIRECT,
    scope: "openid profile email",
    state: "branding",
    code_challenge: createHash("sha256").update(VERIFIER).digest("base64url"),
    code_challenge_method: "S256",
    ...extra,
  })}`;
}

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function signIn(page: Page) {
  await page.getByLabel("Email").fill("multi@schoolhouse.test");
  await page.getByLabel("Password").fill("schoolhouse-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a plain login shows the storefront's school and no application", async ({ page }) => {
  await page.goto("/login");
  await expect(page.locator(".auth-school")).toHaveText("Schoolhouse Demo Academy");
  await expect(page.getByText("is asking to connect")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("authorize on the platform host: login names the application, the picker lists each school with its colour, consent shows the school in its colours", async ({ page }) => {
  await page.goto(authorizePath());
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.getByText("Demo Public App is asking to connect to your account.")).toBeVisible();
  // The school is chosen after sign-in: none is named yet.
  await expect(page.locator(".auth-school")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await signIn(page);

  await expect(page).toHaveURL(/\/oauth\/select-school\?/);
  await expect(page.getByLabel("Schoolhouse Demo Academy")).toBeVisible();
  const acme = page.locator("label", { hasText: "Acme Corp Training" });
  await expect(acme.locator(".school-swatch")).toHaveCSS("background-color", ACME_ACCENT);
  await expectNoAxeViolations(page);
  await page.getByLabel("Acme Corp Training").check();
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.locator(".auth-school")).toHaveText("Acme Corp Training");
  await expect(page.locator(".auth-school")).toHaveCSS("border-left-color", ACME_ACCENT);
  await expect(page.getByRole("button", { name: "Allow" })).toHaveCSS("background-color", ACME_ACCENT);
  await expectNoAxeViolations(page);
});

test("authorize naming a school: login shows that school in its colours and the application", async ({ page }) => {
  await page.goto(authorizePath({ school_id: DEMO_IDS.acmeSchool }));
  await expect(page).toHaveURL(/\/login\?/);
  await expect(page.locator(".auth-school")).toHaveText("Acme Corp Training");
  await expect(page.getByRole("button", { name: "Sign in" })).toHaveCSS("background-color", ACME_ACCENT);
  await expect(page.getByText("Demo Public App is asking to connect to your account.")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a callback whose client_id is no client names no application", async ({ page }) => {
  await page.goto(`/login?callbackUrl=${encodeURIComponent("/oauth/authorize?client_id=<b>x</b>")}`);
  await expect(page.getByText("is asking to connect")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
});
