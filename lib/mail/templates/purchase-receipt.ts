import type { MailContent, MailContext, MailTemplate } from "../template";
import { formatDay, formatMoney, formatPeriod, receiptUrl, text } from "./billing-format";

/** The receipt rows of a paid payment (the purchase and renewal receipts share them). */
export function receiptContent(ctx: MailContext, words: { subject: string; heading: string; paragraph: string }): MailContent {
  const p = ctx.params;
  return {
    subject: words.subject,
    heading: words.heading,
    paragraphs: [words.paragraph],
    rows: [
      ["Membership", text(p.plan)],
      ["Amount paid", formatMoney(p.amount, p.currency)],
      ["Paid on", formatDay(p.paidAt) ?? "—"],
      ["Period", formatPeriod(p.periodStart, p.periodEnd)],
      ["Receipt number", text(p.paymentId)],
    ],
    action: { label: "View your receipt", url: receiptUrl(ctx.school.origin, text(p.paymentId)) },
    note: `Keep this mail as your receipt. Questions about a charge: reply to ${ctx.school.name}.`,
  };
}

/** After the first charge of a purchase succeeded. */
export const purchaseReceipt: MailTemplate = {
  kind: "purchase-receipt",
  description: "Receipt for a purchase (the first successful charge of a membership)",
  async render(ctx) {
    return receiptContent(ctx, {
      subject: `Your receipt from ${ctx.school.name}`,
      heading: "Thank you for your purchase",
      paragraph: `Your ${text(ctx.params.plan)} membership at ${ctx.school.name} is paid and active.`,
    });
  },
};
