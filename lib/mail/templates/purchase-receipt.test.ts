import { describe, expect, it } from "vitest";
import type { MailContext } from "../template";
import { paymentRefunded } from "./payment-refunded";
import { purchaseReceipt } from "./purchase-receipt";

const ctx = (params: Record<string, unknown>): MailContext => ({
  tx: {} as MailContext["tx"],
  school: { id: "s", name: "Demo School", brandColor: null, origin: "https://demo.example" },
  to: "m@example.com",
  user: null,
  params,
  now: new Date("2026-11-26T00:00:00Z"),
});

const paid = { paymentId: "p1", amount: "49.00", currency: "USD", paidAt: "2026-11-26T10:00:00.000Z", periodStart: null, periodEnd: null };

describe("receipts of a one-time purchase (a course, a download)", () => {
  it("names the course, says one-time and shows no period", async () => {
    const mail = (await purchaseReceipt.render(ctx({ ...paid, plan: "Intro to SQL", item: "Intro to SQL", itemKind: "course", subscriptionId: null })))!;
    expect(mail.paragraphs[0]).toBe("You are enrolled in Intro to SQL at Demo School: it is on your account's courses page.");
    expect(mail.rows).toEqual([
      ["Course", "Intro to SQL"],
      ["Amount paid", "$49.00"],
      ["Paid on", "November 26, 2026"],
      ["Payment", "One-time, no subscription"],
      ["Receipt number", "p1"],
    ]);
    expect(mail.action?.url).toBe("https://demo.example/account/payments/p1");
  });

  it("a download's receipt and refund name the download; a membership's keep their words", async () => {
    const download = (await purchaseReceipt.render(ctx({ ...paid, plan: "Presets", item: "Presets", itemKind: "download" })))!;
    expect(download.rows![0]).toEqual(["Download", "Presets"]);
    const refund = (await paymentRefunded.render(ctx({ ...paid, plan: "Presets", item: "Presets", itemKind: "download", refundedAmount: "49.00", refundedAt: paid.paidAt })))!;
    expect(refund.paragraphs[0]).toContain("for your download Presets.");
    const membership = (await purchaseReceipt.render(ctx({ ...paid, plan: "Monthly", periodStart: paid.paidAt, periodEnd: "2026-12-26T10:00:00.000Z" })))!;
    expect(membership.rows![0]).toEqual(["Membership", "Monthly"]);
    expect(membership.rows!.map(([k]) => k)).toContain("Period");
    expect(membership.paragraphs[0]).toBe("Your Monthly membership at Demo School is paid and active.");
  });
});
