import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { DEFAULT_DEMO_API_KEY } from "../../lib/startup/seed/demo-data";

test("the Admin API playground: one key for every tab, the schema loaded at once, with the network cut off", async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const outside: string[] = [];
  // Cut the network: only the app itself may be reached (GraphiQL and its workers are its assets).
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin)) return route.continue();
    outside.push(url);
    return route.abort("internetdisconnected");
  });

  await page.goto("/admin/graphql");
  await expect(page).toHaveTitle("Schoolhouse Admin API");
  await expect(page.locator(".graphiql-container").first()).toBeVisible();
  // Example operations for every mutation and query, one tab each.
  for (const name of ["CreateSubscription", "UpdateSubscription", "CancelSubscription", "EnrollStudentToCourse", "MembershipPlans", "Subscriptions", "Courses"]) {
    await expect(page.locator(".graphiql-tab", { hasText: name }).first()).toBeVisible();
  }

  // The key, once, for the whole session: the schema is fetched at once (the docs know the Query type).
  const introspected = page.waitForResponse((r) => r.url().endsWith("/admin/graphql") && r.request().method() === "POST" && r.status() === 200);
  await page.getByRole("textbox", { name: /API key/ }).fill(DEFAULT_DEMO_API_KEY);
  await page.getByRole("button", { name: "Use key" }).click();
  await expect(page.locator("#key-status")).toContainText("A key is set for this session");
  expect(await (await introspected).text()).toContain("__schema");

  await page.locator(".graphiql-execute-button").click();
  const response = page.locator(".graphiql-response");
  await expect(response).toContainText('"errors": []', { timeout: 15_000 });
  await expect(response).toContainText('"state": "active"');

  // Another tab runs with the same key, without pasting anything; so does the page opened again in this browser tab.
  // (GraphiQL may still be re-rendering after the first answer: switch and run until it took.)
  await expect(async () => {
    await page.getByRole("tab", { name: /MembershipPlans/ }).locator(".graphiql-tab-button").click();
    await page.locator(".graphiql-execute-button").click();
    await expect(response).toContainText('"membershipPlans"', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(response).not.toContainText("UNAUTHENTICATED");
  // (GraphiQL puts the query in the URL; open the page again as a person would.)
  await page.goto("/admin/graphql");
  await expect(page.locator("#key-status")).toContainText("A key is set for this session");
  expect(outside).toEqual([]);
});

test("the playground page is small and its assets immutable; the key bar passes axe-core at 320 px", async ({ page, request }) => {
  const res = await request.get("/admin/graphql", { headers: { accept: "text/html" } });
  const html = await res.text();
  expect(html.length).toBeLessThan(20_000);
  const js = /src="(\/admin\/graphql\/assets\/graphiql\.[^"]+\.js)"/.exec(html)![1]!;
  const asset = await request.get(js);
  expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");

  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto("/admin/graphql");
  await expect(page.locator(".graphiql-container").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const axe = await new AxeBuilder({ page }).include("#key-form").analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("/admin/graphql over HTTP: 401 without a key (no budget headers), 200 with one", async ({ request }) => {
  const r = await request.post("/admin/graphql", { data: { query: "{ membershipPlans { id } }" } });
  expect(r.status()).toBe(401);
  expect((await r.json()).errors[0].extensions.code).toBe("UNAUTHENTICATED");
  expect(r.headers()["ratelimit"]).toBeUndefined();
  const ok = await request.post("/admin/graphql", {
    data: { query: "{ membershipPlans { id } }" },
    headers: { "x-service-api-key": DEFAULT_DEMO_API_KEY },
  });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).data.membershipPlans).toHaveLength(5);
});
