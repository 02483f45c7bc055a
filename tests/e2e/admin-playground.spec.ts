import { expect, test } from "@playwright/test";
import { DEFAULT_DEMO_API_KEY } from "../../lib/startup/seed/demo-data";

test("the Admin API playground runs createSubscription with the network cut off", async ({ page, context, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const outside: string[] = [];
  // Cut the network: only the app itself may be reached (blob: workers are in-page).
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

  // The header editor is open and prefilled for X-Service-API-Key; put a real key in.
  const headers = page.locator(".graphiql-editor-tool .graphiql-editor").last();
  await expect(headers).toContainText("X-Service-API-Key");
  await headers.click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  // Typed key by key, like a person (the editor closes brackets and quotes as they are typed).
  await page.keyboard.type(`{"X-Service-API-Key": "${DEFAULT_DEMO_API_KEY}"}`);
  await expect(headers).toContainText(DEFAULT_DEMO_API_KEY);

  await page.locator(".graphiql-execute-button").click();
  const response = page.locator(".graphiql-response");
  await expect(response).toContainText('"errors": []', { timeout: 15_000 });
  await expect(response).toContainText('"state": "active"');
  await expect(response).toContainText('"email": "new.member@example.com"');
  expect(outside).toEqual([]);
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
