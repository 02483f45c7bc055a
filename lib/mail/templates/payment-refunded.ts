import type { MailTemplate } from "../template";
import { formatDay, formatMoney, receiptUrl, text } from "./billing-format";
import { oneTimeLabel } from "./purchase-receipt";

/** A payment was refunded, in full or in part: how much, of which payment, and when it arrives. */
export const paymentRefunded: MailTemplate = {
  kind: "payment-refunded",
  description: "Refund: how much of which payment was refunded",
  async render({ school, params: p }) {
    const refunded = formatMoney(p.refundedAmount, p.currency);
    const paid = formatMoney(p.amount, p.currency);
    const full = text(p.refundedAmount) === text(p.amount);
    // A one-time purchase's refund names its course or download (access stays: docs/decisions.md, "Checkout").
    const what = oneTimeLabel(p.itemKind);
    const of = what ? `${what.toLowerCase()} ${text(p.item)}` : `${text(p.plan)} membership`;
    return {
      subject: `Your refund from ${school.name}`,
      heading: full ? "Your payment is refunded" : "Part of your payment is refunded",
      paragraphs: [
        `${school.name} refunded ${refunded} of your payment of ${paid} for your ${of}.`,
        "The money goes back to the card you paid with; banks usually show it within 5 to 10 business days.",
      ],
      rows: [
        [what ?? "Membership", text(what ? p.item : p.plan)],
        ["Refunded", refunded],
        ["Refunded on", formatDay(p.refundedAt) ?? "—"],
        ["Original payment", paid],
        ["Receipt number", text(p.paymentId)],
      ],
      action: { label: "View the payment", url: receiptUrl(school.origin, text(p.paymentId)) },
    };
  },
};
