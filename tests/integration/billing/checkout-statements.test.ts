// The checkout's hot requests and their statements (docs/benchmarks.md, "Checkout"): the review
// page reads its item from the process cache (lib/billing/checkout-item-cache.ts), the start is one
// statement for every check and the insert (lib/billing/start-checkout.ts), and a cached item
// whose content changed since is never sold at its old price: the statement's ContentVersion guard
// refuses to write and the item is read again. PGlite, and Postgres with TEST_DATABASE_URL.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startCheckout } from "@/lib/billing/start-checkout";
import { versionedCheckoutItem } from "@/lib/billing/checkout-item-cache";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { TEST_NOW, freshEmail } from "../admin-api/helpers";
import { checkoutClient } from "./helpers";
import { statementsDuring } from "../../helpers/statements";
import { envForSuite } from "../../helpers/suite-env";

const ORIGIN = "http://demo.localhost";
const PRICED_PLAN = "5c400000-0000-4000-8000-0000000003b1";
const app = appForSuite({
  host: "demo.localhost",
  now: TEST_NOW,
  prepare: async () => {
    await db().membershipPlan.upsert({
      where: { id: PRICED_PLAN },
      create: { id: PRICED_PLAN, schoolId: DEMO_IDS.school, slug: "priced-monthly", name: "Priced monthly", planType: "recurring", interval: "month", price: "10.00", currency: "USD" },
      update: { price: "10.00" },
    });
  },
});
const { started } = checkoutClient(app, ORIGIN);

const itemReads = (sql: string[]) => sql.filter((s) => /FROM "public"\."(MembershipPlan|Course|DigitalDownload)"/.test(s));
/** Prisma's statements name "public"."…"; the content version's read is the one the storefront makes too. */
const prismaBeyondVersion = (sql: string[]) => sql.filter((s) => s.includes('"public".') && !s.includes('"public"."ContentVersion"'));

describe("the checkout's hot requests", () => {
  it("the review page reads no item row once its item is cached", async () => {
    expect((await app.fetch("/checkout/plans/monthly")).status).toBe(200);
    const { result, sql } = await statementsDuring(() => app.fetch("/checkout/plans/monthly"));
    expect(result.status).toBe(200);
    expect(await result.text()).toContain('action="/api/checkout"');
    expect(itemReads(sql)).toEqual([]);
    expect(prismaBeyondVersion(sql)).toEqual([]);
  });

  it("a visitor's start: one statement checks and writes the checkout, then the provider's row and its id; nothing through Prisma", async () => {
    await started({ plan: DEMO_IDS.plans.monthly, email: freshEmail("warm"), name: "Warm Up" });
    const email = freshEmail("counted");
    const { result, sql } = await statementsDuring(() => started({ plan: DEMO_IDS.plans.monthly, email, name: "Counted Buyer" }));
    expect(sql.filter((s) => s.includes('INSERT INTO "CheckoutSession"'))).toHaveLength(1);
    expect(sql.filter((s) => s.includes('INSERT INTO "TestProviderCheckout"'))).toHaveLength(1);
    expect(sql.filter((s) => s.startsWith('UPDATE "CheckoutSession"'))).toHaveLength(1);
    expect(prismaBeyondVersion(sql)).toEqual([]);
    const row = await db().checkoutSession.findUniqueOrThrow({ where: { id: result.checkoutId } });
    expect(row).toMatchObject({ email, name: "Counted Buyer", userId: null, provider: "test", status: "open", currency: "USD", trialDays: null });
    expect(row.amount.toFixed(2)).toBe("29.00");
    expect(row.providerSessionId).toBe(result.hostedPath.split("/").pop());
  });
});

describe("a cached item whose price changed", () => {
  // The content version is trusted for a minute here, so the cached plan looks current to the cache.
  envForSuite({ STOREFRONT_REVALIDATE_MS: "60000" });

  it("is sold at the new price: the guarded statement writes nothing with the old one, and the plan is read again", async () => {
    const cached = await versionedCheckoutItem({ schoolId: DEMO_IDS.school, key: { kind: "plan", id: PRICED_PLAN }, now: TEST_NOW });
    expect(cached?.item.price?.toFixed(2)).toBe("10.00");
    await db().membershipPlan.update({ where: { id: PRICED_PLAN }, data: { price: "12.50" } });
    // Still the old price from the cache (its version is trusted), which the start must not use.
    expect((await versionedCheckoutItem({ schoolId: DEMO_IDS.school, key: { kind: "plan", id: PRICED_PLAN }, now: TEST_NOW }))?.item.price?.toFixed(2)).toBe("10.00");
    const { result, sql } = await statementsDuring(() =>
      startCheckout({ schoolId: DEMO_IDS.school, input: { planId: PRICED_PLAN, email: freshEmail("repriced"), name: "Re Priced" }, member: null, origin: ORIGIN, now: TEST_NOW }),
    );
    expect(result.errors).toEqual([]);
    expect(sql.filter((s) => s.includes('INSERT INTO "CheckoutSession"'))).toHaveLength(2);
    const row = await db().checkoutSession.findUniqueOrThrow({ where: { id: result.record!.checkoutId } });
    expect(row.amount.toFixed(2)).toBe("12.50");
    const hosted = await db().testProviderCheckout.findFirstOrThrow({ where: { checkoutId: row.id } });
    expect(hosted.amount.toFixed(2)).toBe("12.50");
  });
});
