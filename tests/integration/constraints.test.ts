import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";

let schoolId: string;
let userId: string;
let planId: string;

beforeAll(async () => {
  const school = await db().school.create({ data: { subdomain: "constraints", name: "C" } });
  const user = await db().user.create({ data: { email: "c@test.dev", name: "C" } });
  const plan = await db().membershipPlan.create({
    data: { schoolId: school.id, slug: "p", name: "P", planType: "recurring", interval: "month", price: "5.00", currency: "USD" },
  });
  schoolId = school.id;
  userId = user.id;
  planId = plan.id;
});

describe("database constraints", () => {
  it("allows one live subscription per user and plan, and any number of ended ones", async () => {
    const base = { schoolId, userId, planId };
    await db().subscription.create({ data: { ...base, state: "active" } });
    for (const state of ["active", "trialing", "past_due", "incomplete"] as const) {
      await expect(db().subscription.create({ data: { ...base, state } })).rejects.toMatchObject({ code: "P2002" });
    }
    for (const state of ["canceled", "canceled", "expired", "incomplete_expired"] as const) {
      await db().subscription.create({ data: { ...base, state } });
    }
    expect(await db().subscription.count({ where: base })).toBe(5);
  });

  it("refuses plans whose type-specific fields are missing", async () => {
    const plan = { schoolId, name: "X", price: "1.00", currency: "USD" };
    await expect(db().membershipPlan.create({ data: { ...plan, slug: "r", planType: "recurring" } })).rejects.toThrow(/MembershipPlan_type_fields/);
    await expect(db().membershipPlan.create({ data: { ...plan, slug: "s", planType: "specific_length" } })).rejects.toThrow(/MembershipPlan_type_fields/);
    await expect(db().membershipPlan.create({ data: { ...plan, slug: "f", planType: "fixed_date" } })).rejects.toThrow(/MembershipPlan_type_fields/);
    await expect(db().membershipPlan.create({ data: { ...plan, slug: "n", planType: "lifetime", price: "-1.00" } })).rejects.toThrow(/price_nonnegative/);
    await expect(db().membershipPlan.create({ data: { ...plan, slug: "c", planType: "lifetime", currency: "usd" } })).rejects.toThrow(/currency_iso/);
  });

  it("keeps emails normalized and unique", async () => {
    await expect(db().user.create({ data: { email: "Mixed@Case.dev", name: "M" } })).rejects.toThrow(/User_email_normalized/);
    await expect(db().user.create({ data: { email: "c@test.dev", name: "Dup" } })).rejects.toMatchObject({ code: "P2002" });
  });

  it("keeps a subscription's period in order", async () => {
    const start = new Date();
    await expect(
      db().subscription.create({
        data: { schoolId, userId, planId, state: "canceled", currentPeriodStart: start, currentPeriodEnd: new Date(start.getTime() - 1000) },
      }),
    ).rejects.toThrow(/Subscription_period_order/);
  });

  it("keeps slugs unique per school", async () => {
    await db().course.create({ data: { schoolId, slug: "same", title: "A" } });
    await expect(db().course.create({ data: { schoolId, slug: "same", title: "B" } })).rejects.toMatchObject({ code: "P2002" });
  });
});
