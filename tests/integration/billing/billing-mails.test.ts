// The member's billing mails (docs/decisions.md, "Mail": "Billing mails"): each written to the mail
// outbox in the transaction of the billing transition that causes it, on a driven clock, read back
// as MailMessage rows and rendered. PGlite, and Postgres with TEST_DATABASE_URL.
import { afterEach, describe, expect, it } from "vitest";
import { setNow, toUnixSeconds } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { renewDueSubscriptions } from "@/lib/billing/renew-due";
import { RETRY_DELAYS_MS } from "@/lib/billing/schedule";
import type { WebhookEventType } from "@/lib/db/outbox";
import { enqueueBillingMails } from "@/lib/mail/billing-mails";
import { renderMail } from "@/lib/mail/render";
import { MAIL_TEMPLATES } from "@/lib/mail/templates";
import type { MailKind } from "@/lib/mail/enqueue";
import { cancelSubscription } from "@/lib/membership/cancel-subscription";
import { settleDueSubscriptions } from "@/lib/membership/settle";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { PLANS, TEST_NOW, adminAppForSuite, gql, CANCEL } from "../admin-api/helpers";
import { CARDS, subscribeWithCard } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

const app = adminAppForSuite();
const T = toUnixSeconds(TEST_NOW)!;
const DAY = 86_400;
const at = (unix: number) => new Date(unix * 1000);
const DEC_21 = toUnixSeconds(new Date("2026-12-21T12:00:00Z"))!;
const BILLING_KINDS = ["purchase-receipt", "renewal-receipt", "payment-failed", "payment-refunded", "subscription-canceled"];

afterEach(async () => {
  setNow(TEST_NOW);
  await db().school.update({ where: { id: DEMO_IDS.school }, data: { mailDisabled: [] } });
});

/** The billing mails written for a subscription's member, oldest first. */
async function billingMailsOf(subscriptionId: string) {
  const s = await db().subscription.findUniqueOrThrow({ where: { id: subscriptionId }, include: { user: true } });
  const rows = await db().mailMessage.findMany({ where: { userId: s.userId, kind: { in: BILLING_KINDS } }, orderBy: [{ createdAt: "asc" }] });
  // Mails of one transaction share createdAt: order as written (payment mail before the subscription's).
  return rows.map((r) => ({ kind: r.kind, to: r.to, schoolId: r.schoolId, createdAt: r.createdAt, params: r.params as Record<string, unknown> })).map((r) => ({ ...r, email: s.user.email }));
}

/** Renders a row's mail as the worker would (the templates here read only the row's data). */
async function rendered(kind: string, params: Record<string, unknown>) {
  const school = await db().school.findUniqueOrThrow({ where: { id: DEMO_IDS.school } });
  const content = await db().$transaction((tx) =>
    MAIL_TEMPLATES[kind as MailKind].render({
      tx,
      school: { id: school.id, name: school.name, brandColor: "#aa3300", origin: "http://demo.localhost" },
      to: "m@example.com",
      user: null,
      params,
      now: TEST_NOW,
    }),
  );
  return { school, mail: renderMail(content!, { name: school.name, brandColor: "#aa3300" }) };
}

const runAt = (unix: number) => renewDueSubscriptions({ now: at(unix) });

describe("billing mails", () => {
  it("purchase receipt at the first charge, renewal receipt at each renewal, to the member, with the amount in its currency", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const plan = await db().membershipPlan.findUniqueOrThrow({ where: { id: PLANS.monthly } });
    let mails = await billingMailsOf(s.id);
    expect(mails.map((m) => m.kind)).toEqual(["purchase-receipt"]);
    expect(mails[0]).toMatchObject({ to: mails[0]!.email, schoolId: DEMO_IDS.school, createdAt: TEST_NOW });
    expect(mails[0]!.params).toMatchObject({ paymentId: s.payments[0].id, subscriptionId: s.id, plan: plan.name, amount: "29.00", currency: "USD", paidAt: TEST_NOW.toISOString() });

    await runAt(DEC_21);
    await runAt(DEC_21 + 10); // nothing more due: no second receipt
    mails = await billingMailsOf(s.id);
    expect(mails.map((m) => m.kind)).toEqual(["purchase-receipt", "renewal-receipt"]);
    expect(mails[1]!.params).toMatchObject({ amount: "29.00", currency: "USD", periodStart: at(DEC_21).toISOString(), paidAt: at(DEC_21).toISOString() });

    const { school, mail } = await rendered("renewal-receipt", mails[1]!.params);
    expect(mail.subject).toBe(`Your renewal receipt from ${school.name}`);
    expect(mail.text).toContain("Amount paid: $29.00");
    expect(mail.text).toContain("Period: December 21, 2026 to January 21, 2027");
    expect(mail.links).toEqual([`http://demo.localhost/account/payments/${mails[1]!.params.paymentId}`]);
    expect(mail.html).toContain("#aa3300");
  });

  it("a trial's first charge is the purchase", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa, { initialChargeAt: T + 14 * DAY });
    expect(await billingMailsOf(s.id)).toEqual([]);
    await runAt(T + 14 * DAY);
    expect((await billingMailsOf(s.id)).map((m) => m.kind)).toEqual(["purchase-receipt"]);
  });

  it("payment failed at each refused renewal (with the next attempt), then canceled after the last retry instead", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.failsLater);
    let t = DEC_21;
    await runAt(t);
    const first = (await billingMailsOf(s.id)).at(-1)!;
    expect(first.kind).toBe("payment-failed");
    expect(first.params).toMatchObject({ state: "past_due", amount: "29.00", currency: "USD", nextAttemptAt: at(t + RETRY_DELAYS_MS[0]! / 1000).toISOString() });
    expect(first.params.failureMessage).toEqual(expect.any(String));
    const { mail } = await rendered("payment-failed", first.params);
    expect(mail.text).toContain("We will try the card again on December 24, 2026");
    expect(mail.text).toContain("We could not charge $29.00");
    // The link leads to the membership's "Update payment method" form.
    expect(mail.text).toContain("update your payment method on your account page");
    expect(mail.links).toEqual([`http://demo.localhost/account/memberships#payment-method-${s.id}`]);

    for (const delay of RETRY_DELAYS_MS) {
      t += delay / 1000;
      await runAt(t);
    }
    const mails = await billingMailsOf(s.id);
    // Four refused charges: three say a retry is coming, the last one ends it and says so.
    expect(mails.map((m) => m.kind)).toEqual(["purchase-receipt", "payment-failed", "payment-failed", "payment-failed", "subscription-canceled"]);
    expect(mails.at(-1)!.params).toMatchObject({ cancelType: "payment_failed", endAt: at(t).toISOString() });
    const canceled = await rendered("subscription-canceled", mails.at(-1)!.params);
    expect(canceled.mail.text).toContain("we could not collect its payment after several attempts");
  });

  it("a first charge refused: payment failed, saying the membership has not started", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.declined);
    const mails = await billingMailsOf(s.id);
    expect(mails.map((m) => m.kind)).toEqual(["payment-failed"]);
    expect(mails[0]!.params).toMatchObject({ state: "incomplete", nextAttemptAt: null, failureMessage: "Your card was declined." });
    const { mail } = await rendered("payment-failed", mails[0]!.params);
    expect(mail.text).toContain("Your membership has not started");
  });

  it("canceled: at once through the Admin API, and a scheduled cancellation when it takes effect; a dry run mails nothing", async () => {
    const now = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const dry = await cancelSubscription({ actor: TEST_ACTOR, schoolId: DEMO_IDS.school, input: { id: now.id, cancelAtPeriodEnd: false }, now: TEST_NOW, dryRun: true });
    expect(dry.errors).toEqual([]);
    expect((await billingMailsOf(now.id)).map((m) => m.kind)).toEqual(["purchase-receipt"]);
    await gql(app, CANCEL, { input: { id: now.id, cancelAtPeriodEnd: false } });
    const immediate = (await billingMailsOf(now.id)).at(-1)!;
    expect(immediate).toMatchObject({ kind: "subscription-canceled", params: expect.objectContaining({ cancelType: "immediate" }) });

    const later = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    await gql(app, CANCEL, { input: { id: later.id } });
    expect((await billingMailsOf(later.id)).map((m) => m.kind)).toEqual(["purchase-receipt"]);
    await settleDueSubscriptions({ now: at(DEC_21), schoolId: DEMO_IDS.school });
    const ended = (await billingMailsOf(later.id)).at(-1)!;
    expect(ended).toMatchObject({ kind: "subscription-canceled", params: expect.objectContaining({ cancelType: "at_period_end", endAt: at(DEC_21).toISOString() }) });
    expect((await rendered("subscription-canceled", ended.params)).mail.text).toContain("ended on December 21, 2026");
  });

  it("each kind is a school setting: a kind turned off is not written, the others are", async () => {
    await db().school.update({ where: { id: DEMO_IDS.school }, data: { mailDisabled: ["purchase-receipt"] } });
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    expect(await billingMailsOf(s.id)).toEqual([]);
    await runAt(DEC_21);
    expect((await billingMailsOf(s.id)).map((m) => m.kind)).toEqual(["renewal-receipt"]);
  });
});

describe("refund mail (for the refund verb)", () => {
  it("a payment.refunded event writes payment-refunded with the refunded amount; it renders full and partial refunds", async () => {
    const s = await subscribeWithCard(app, PLANS.monthly, CARDS.visa);
    const paymentId = s.payments[0].id as string;
    await db().payment.update({ where: { id: paymentId }, data: { refundedAmount: "10.00", refundedAt: at(T + DAY) } });
    const event = { schoolId: DEMO_IDS.school, type: "payment.refunded" as WebhookEventType, subjectId: paymentId, data: {} };
    await db().$transaction((tx) => enqueueBillingMails(tx, { events: [event], now: at(T + DAY) }));
    const mail = (await billingMailsOf(s.id)).at(-1)!;
    expect(mail).toMatchObject({ kind: "payment-refunded", params: expect.objectContaining({ amount: "29.00", refundedAmount: "10.00", currency: "USD", refundedAt: at(T + DAY).toISOString() }) });
    const partial = (await rendered("payment-refunded", mail.params)).mail;
    expect(partial.subject).toMatch(/^Your refund from /);
    expect(partial.text).toContain("refunded $10.00 of your payment of $29.00");
    expect(partial.text).toContain("Part of your payment is refunded");
    const full = (await rendered("payment-refunded", { ...mail.params, refundedAmount: "29.00" })).mail;
    expect(full.text).toContain("Your payment is refunded");
  });
});
