// create_checkout_link (docs/decisions.md, "Billing", "Checkout"): a member's token buys for that
// member, an API key for an email; the link is the provider's hosted page on the school's origin,
// card data never passes through the tool, and refusals open nothing. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { adminAppForSuite, freshEmail } from "../admin-api/helpers";
import { signIn } from "../oauth/helpers";
import { call, mcpClient, mcpToken, text } from "./helpers";

const app = adminAppForSuite();
let studentToken: string;
beforeAll(async () => {
  studentToken = await mcpToken(app, await signIn(app, "student@schoolhouse.test"), { schoolId: DEMO_IDS.school, scope: "openid" });
}, 180_000);

async function payAndReturn(url: string) {
  const hosted = new URL(url);
  const id = hosted.pathname.split("/").pop()!;
  const paid = await app.fetch(`/api/checkout/test/${id}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: app.url },
    body: "card=4242424242424242",
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const back = new URL(paid.headers.get("location")!);
  return app.fetch(back.pathname, { redirect: "manual" });
}

describe("create_checkout_link", () => {
  it("for the signed-in member: a link to the hosted page for their own account; paying there gives them the plan", async () => {
    const client = await mcpClient(app, studentToken);
    const r = await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.bootcamp, email: "someone.else@example.com" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as { url: string; checkout_id: string; plan: { price: string; currency: string } };
    expect(out.url.startsWith(`${app.url}/checkout/test/cs_test_`)).toBe(true);
    expect(out.plan).toMatchObject({ price: "149.00", currency: "USD" });
    // A token acts for its member only: the email argument is not who buys.
    const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: out.checkout_id } });
    expect(checkout).toMatchObject({ userId: DEMO_IDS.users.student, email: "student@schoolhouse.test" });
    expect(text(r)).not.toMatch(/4242|cvc|card number/i);
    const done = await payAndReturn(out.url);
    expect(done.status).toBe(200);
    const sub = await db().subscription.findFirstOrThrow({ where: { userId: DEMO_IDS.users.student, planId: DEMO_IDS.plans.bootcamp } });
    expect(sub.state).toBe("active");
    // Now they have it: a second link is refused, nothing opened.
    const before = await db().checkoutSession.count();
    const again = await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.bootcamp });
    expect(again.isError).toBe(true);
    expect(text(again)).toBe("You already have this plan; manage it on your account page");
    expect(await db().checkoutSession.count()).toBe(before);
    await client.close();
  }, 120_000);

  it("with an API key: for an email (a name for a new account); refusals are clear and open nothing", async () => {
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    const before = await db().checkoutSession.count();
    expect(text(await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.monthly }))).toBe("email is required with an API key: whose checkout is it?");
    expect(text(await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.monthly, email: freshEmail("mcp") }))).toBe("Name is required for new users");
    expect(text(await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.legacyAnnual, email: freshEmail("mcp"), name: "N" }))).toBe("This plan is closed to new members");
    expect(text(await call(client, "create_checkout_link", { plan_id: "nope", email: freshEmail("mcp"), name: "N" }))).toBe("Plan not found");
    expect(await db().checkoutSession.count()).toBe(before);
    const email = freshEmail("mcp");
    const r = await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.monthly, email, name: "Mcp Buyer" });
    expect(r.isError).toBeFalsy();
    const done = await payAndReturn((r.structuredContent as { url: string }).url);
    // Not the browser that started it (an assistant did): completed, nobody signed in.
    expect(done.status).toBe(200);
    expect(done.headers.get("set-cookie")).toBeNull();
    expect((await db().subscription.findFirstOrThrow({ where: { user: { email } } })).state).toBe("active");
    await client.close();

    const none = await mcpClient(app, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS);
    expect(text(await call(none, "create_checkout_link", { plan_id: DEMO_IDS.plans.monthly, email, name: "X" }))).toBe("Unauthorized");
    await none.close();
  }, 120_000);
});
