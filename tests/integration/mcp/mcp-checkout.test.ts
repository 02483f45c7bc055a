// create_checkout_link (docs/decisions.md, "Billing", "Checkout"): a member's token buys for that
// member, an API key for an email; the link is the provider's hosted page on the school's origin,
// card data never passes through the tool, and refusals open nothing. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ACME_API_KEY, DEFAULT_DEMO_API_KEY, DEFAULT_DEMO_API_KEY_NO_PERMISSIONS, DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { TEST_NOW, freshEmail } from "../admin-api/helpers";
import { signIn } from "../oauth/helpers";
import { call, mcpClient, mcpToken, prose, rpc, text, toolCall } from "./helpers";

// Made for these tests, as content files would import them: a free course, a paid course of the
// members-only (enterprise-training) school.
const FREE_COURSE = "5c400000-0000-4000-8000-0007000000e1";
const ACME_PAID_COURSE = "5c400000-0000-4000-8000-0007000000e2";
const app = appForSuite({
  now: TEST_NOW,
  prepare: async () => {
    await db().course.upsert({ where: { id: FREE_COURSE }, create: { id: FREE_COURSE, schoolId: DEMO_IDS.school, slug: "mcp-free-basics", title: "Free basics", price: "0.00", currency: "USD" }, update: {} });
    await db().course.upsert({ where: { id: ACME_PAID_COURSE }, create: { id: ACME_PAID_COURSE, schoolId: DEMO_IDS.acmeSchool, slug: "acme-paid-extra", title: "Paid extra", price: "15.00", currency: "EUR" }, update: {} });
  },
});
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

describe("create_checkout_link for a paid course or download", () => {
  type Out = { url: string; checkout_id: string; item: { kind: string; id: string; slug: string; name: string; price: string; currency: string }; plan?: unknown; expires_at: number };

  it("a member buys a course by its slug: the hosted page at the course's price, paid once; the JSON of structuredContent first; then enrolled, and a second link is refused", async () => {
    const client = await mcpClient(app, studentToken);
    const r = await call(client, "create_checkout_link", { course_slug: "python-for-data-analysis" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as Out;
    const course = await db().course.findUniqueOrThrow({ where: { schoolId_slug: { schoolId: DEMO_IDS.school, slug: "python-for-data-analysis" } } });
    expect(out.item).toEqual({ kind: "course", id: course.id, slug: "python-for-data-analysis", name: course.title, price: course.price!.toFixed(2), currency: course.currency });
    expect(out.plan).toBeUndefined();
    expect(out.url.startsWith(`${app.url}/checkout/test/cs_test_`)).toBe(true);
    expect(prose(r)).toContain("paid once");
    const checkout = await db().checkoutSession.findUniqueOrThrow({ where: { id: out.checkout_id } });
    expect(checkout).toMatchObject({ courseId: course.id, planId: null, downloadId: null, userId: DEMO_IDS.users.student, trialDays: null });
    expect((await payAndReturn(out.url)).status).toBe(200);
    expect(await db().enrollment.count({ where: { courseId: course.id, userId: DEMO_IDS.users.student } })).toBe(1);
    const before = await db().checkoutSession.count();
    const again = await call(client, "create_checkout_link", { course_slug: "python-for-data-analysis" });
    expect(again.isError).toBe(true);
    expect(text(again)).toBe("You are already enrolled in this course; find it on your account page");
    expect(await db().checkoutSession.count()).toBe(before);
    await client.close();
  }, 120_000);

  it("an API key buys a download for an email: paying gives the access; the buyer then has it, and a second link is refused", async () => {
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    const email = freshEmail("mcp-download");
    const r = await call(client, "create_checkout_link", { download_slug: "lightroom-presets", email, name: "Preset Buyer" });
    expect(r.isError).toBeFalsy();
    const out = r.structuredContent as Out;
    expect(out.item).toMatchObject({ kind: "download", slug: "lightroom-presets", name: "Catalog Lightroom presets", price: "19.00", currency: "USD" });
    expect((await payAndReturn(out.url)).status).toBe(200);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await db().downloadAccess.count({ where: { downloadId: out.item.id, userId: user.id } })).toBe(1);
    const again = await call(client, "create_checkout_link", { download_slug: "lightroom-presets", email });
    expect(text(again)).toBe("You already have this download; find it on your account page");
    await client.close();
  }, 120_000);

  it("the storefront's refusals, nothing opened: free items, unknown slugs, none or two items named, out-of-schema slugs", async () => {
    const client = await mcpClient(app, DEFAULT_DEMO_API_KEY);
    const before = await db().checkoutSession.count();
    const buyer = { email: freshEmail("mcp-refused"), name: "N" };
    expect(text(await call(client, "create_checkout_link", { course_slug: "mcp-free-basics", ...buyer }))).toBe("This course is free: enroll from its page while signed in");
    expect(text(await call(client, "create_checkout_link", { download_slug: "sql-cheat-sheet", ...buyer }))).toBe("This download is free: get it from its page while signed in");
    expect(text(await call(client, "create_checkout_link", { course_slug: "no-such-course", ...buyer }))).toBe("Course not found");
    expect(text(await call(client, "create_checkout_link", { download_slug: "no-such-download", ...buyer }))).toBe("Download not found");
    expect(text(await call(client, "create_checkout_link", buyer))).toBe("Name one item to buy: a plan, a course or a download");
    expect(text(await call(client, "create_checkout_link", { plan_id: DEMO_IDS.plans.monthly, course_slug: "intro-to-sql", ...buyer }))).toBe("Name one item to buy: a plan, a course or a download");
    // Outside the schema's bounds: refused by the SDK's validation before the tool runs.
    for (const course_slug of ["Intro-To-SQL", "../x", "a".repeat(201)]) {
      const bad = await call(client, "create_checkout_link", { course_slug, ...buyer });
      expect(bad.isError, course_slug).toBe(true);
      expect(text(bad), course_slug).toMatch(/course_slug/);
    }
    expect(await db().checkoutSession.count()).toBe(before);
    await client.close();
  });

  it("a members-only school sells only to its members: an outsider's email is refused, its employee gets a link", async () => {
    const acmeHost = new URL(app.url).host.replace(/^[^:]+/, "acme-training.localhost");
    const acme = async (args: Record<string, unknown>) => {
      const res = await rpc(app, toolCall("create_checkout_link", args), { authorization: `Bearer ${ACME_API_KEY}`, host: acmeHost });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: Out } }).result;
    };
    const before = await db().checkoutSession.count();
    const outsider = await acme({ course_slug: "acme-paid-extra", email: freshEmail("outsider"), name: "Out Sider" });
    expect(outsider.isError).toBe(true);
    expect(outsider.content[0]!.text).toBe("This school's courses are for its members only; sign in with the account your organisation gave you");
    expect(await db().checkoutSession.count()).toBe(before);
    const employee = await acme({ course_slug: "acme-paid-extra", email: "employee@schoolhouse.test" });
    expect(employee.isError).toBeFalsy();
    expect(employee.structuredContent!.item).toMatchObject({ kind: "course", id: ACME_PAID_COURSE, price: "15.00", currency: "EUR" });
  });
});
