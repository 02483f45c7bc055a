import type { MailContent, MailContext, MailTemplate } from "../template";
import { formatDay, formatMoney, formatPeriod, receiptUrl, text } from "./billing-format";

/** The receipt rows of a paid payment (the purchase and renewal receipts share them). */
export function receiptContent(ctx: MailContext, words: { subject: string; heading: string; paragraph: string }): MailContent {
  const p = ctx.params;
  const what = oneTimeLabel(p.itemKind);
  return {
    subject: words.subject,
    heading: words.heading,
    paragraphs: [words.paragraph],
    // A one-time purchase (a course, a download) has no period: it is bought once.
    rows: [
      [what ?? "Membership", text(what ? p.item : p.plan)],
      ["Amount paid", formatMoney(p.amount, p.currency)],
      ["Paid on", formatDay(p.paidAt) ?? "—"],
      ...(what ? [["Payment", "One-time, no subscription"] as [string, string]] : [["Period", formatPeriod(p.periodStart, p.periodEnd)] as [string, string]]),
      ["Receipt number", text(p.paymentId)],
    ],
    action: { label: "View your receipt", url: receiptUrl(ctx.school.origin, text(p.paymentId)) },
    note: `Keep this mail as your receipt. Questions about a charge: reply to ${ctx.school.name}.`,
  };
}

/** "Course" or "Download" for a one-time purchase's item, null for a membership's payment. */
export const oneTimeLabel = (kind: unknown): string | null => (kind === "course" ? "Course" : kind === "download" ? "Download" : null);

/** After the first charge of a purchase succeeded. */
export const purchaseReceipt: MailTemplate = {
  kind: "purchase-receipt",
  description: "Receipt for a purchase (the first successful charge of a membership)",
  async render(ctx) {
    return receiptContent(ctx, {
      subject: `Your receipt from ${ctx.school.name}`,
      heading: "Thank you for your purchase",
      paragraph:
        ctx.params.itemKind === "course"
          ? `You are enrolled in ${text(ctx.params.item)} at ${ctx.school.name}: it is on your account's courses page.`
          : ctx.params.itemKind === "download"
            ? `${text(ctx.params.item)} from ${ctx.school.name} is yours: it is on your account's courses page.`
            : `Your ${text(ctx.params.plan)} membership at ${ctx.school.name} is paid and active.`,
    });
  },
};
