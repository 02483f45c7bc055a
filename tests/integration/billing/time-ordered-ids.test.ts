// The rows a renewal writes get time-ordered ids (UUIDv7; docs/decisions.md, "Time-ordered ids"):
// payments, their webhook events, audit rows and receipts, and the test provider's charges, so each
// insert lands at its primary key's right edge. They stay UUIDs wherever they are shown. PGlite, and
// Postgres with TEST_DATABASE_URL.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { isUuid } from "@/lib/core/ids";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { PLANS, adminAppForSuite } from "../admin-api/helpers";
import { CARDS, readBilled, subscribeWithCard } from "./helpers";

const app = adminAppForSuite();
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DEC_21 = new Date("2026-12-21T12:00:00Z");

/** Every row of a renewal, as the database orders the ids (uuid comparison: bytewise). */
async function rowsOf(subscriptionIds: string[]) {
  const payments = await db().payment.findMany({ where: { subscriptionId: { in: subscriptionIds } }, orderBy: { id: "asc" } });
  const paymentIds = payments.map((p) => p.id);
  const events = await db().webhookEvent.findMany({ where: { subjectId: { in: [...subscriptionIds, ...paymentIds] } }, orderBy: { id: "asc" } });
  const audits = await db().auditEvent.findMany({ where: { targetId: { in: paymentIds } }, orderBy: { id: "asc" } });
  const userIds = (await db().subscription.findMany({ where: { id: { in: subscriptionIds } }, select: { userId: true } })).map((s) => s.userId);
  const mails = await db().mailMessage.findMany({ where: { userId: { in: userIds }, kind: { in: ["renewal-receipt", "purchase-receipt"] } }, orderBy: { id: "asc" } });
  const charges = await db().testProviderCharge.findMany({ where: { OR: subscriptionIds.map((id) => ({ idempotencyKey: { startsWith: `sub_${id}_` } })) }, orderBy: { id: "asc" } });
  return { payments, events, audits, mails, charges };
}

describe("time-ordered ids of a renewal's rows", () => {
  it("payments, events, audit rows, receipts and the provider's charges are UUIDv7, in the order they were written", async () => {
    const subs = [await subscribeWithCard(app, PLANS.monthly, CARDS.visa), await subscribeWithCard(app, PLANS.monthly, CARDS.visa)];
    const ids = subs.map((s) => s.id);
    const before = await rowsOf(ids);
    await new Promise((r) => setTimeout(r, 5));
    await renewDueSubscriptions({ now: DEC_21 });
    const after = await rowsOf(ids);

    expect(after.payments).toHaveLength(4);
    expect(after.events.length).toBeGreaterThan(before.events.length);
    expect(after.audits.length).toBeGreaterThan(before.audits.length);
    expect(after.mails.length).toBeGreaterThan(before.mails.length);
    expect(after.charges).toHaveLength(4);
    for (const rows of [after.payments, after.events, after.audits, after.mails]) for (const r of rows) expect(r.id).toMatch(V7);
    for (const c of after.charges) expect(c.id).toMatch(/^pi_test_[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);

    // The renewal's rows sort after the purchase's: ordered by id (the database's order), the rows
    // written before the run come first, then the run's own.
    for (const key of ["payments", "events", "audits", "mails", "charges"] as const) {
      const old = new Set(before[key].map((r) => r.id));
      const flags = after[key].map((r) => old.has(r.id));
      expect(flags, key).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
      expect(flags.filter(Boolean), key).toHaveLength(before[key].length);
    }
    // A v7 id carries its creation time; the row carries the (test clock's) time of the change.
    const newest = after.payments.at(-1)!;
    expect(newest.periodStart?.getTime()).toBe(DEC_21.getTime());
  });

  it("the Admin API shows a renewal's payment ids as the UUIDs they are", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    await renewDueSubscriptions({ now: DEC_21 });
    const read = await readBilled(app, s.id);
    expect(read.payments).toHaveLength(2);
    for (const p of read.payments as { id: string; providerPaymentId: string }[]) {
      expect(isUuid(p.id)).toBe(true);
      expect(p.id).toMatch(V7);
      expect(p.providerPaymentId).toMatch(/^pi_test_/);
    }
  });
});
