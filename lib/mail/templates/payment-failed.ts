import type { MailTemplate } from "../template";
import { formatDay, formatMoney, membershipsUrl, paymentMethodUrl, text } from "./billing-format";

/** A charge was refused: what happened, what happens next, and what the member can do. */
export const paymentFailed: MailTemplate = {
  kind: "payment-failed",
  description: "Payment failed: a charge was refused, with when it is tried again and what to do",
  async render({ school, params: p }) {
    const amount = formatMoney(p.amount, p.currency);
    const plan = text(p.plan);
    const reason = text(p.failureMessage) || "The charge was refused.";
    const retry = formatDay(p.nextAttemptAt);
    const paragraphs = [`We could not charge ${amount} for your ${plan} membership at ${school.name}. ${reason}`];
    if (p.state === "incomplete") {
      paragraphs.push("Your membership has not started. To start it, buy it again with another card, or contact the school to pay another way.");
    } else if (retry) {
      paragraphs.push(
        `Your membership continues for now. We will try the card again on ${retry}. Make sure it can pay by then (funds, expiry date), or update your payment method on your account page: a new one pays the overdue amount at once.`,
        "If every attempt fails, the membership ends.",
      );
    } else {
      paragraphs.push(`Contact ${school.name} to keep your membership.`);
    }
    return {
      subject: `Your payment to ${school.name} failed`,
      heading: "We could not take your payment",
      paragraphs,
      rows: [
        ["Membership", plan],
        ["Amount", amount],
        ...(retry && p.state !== "incomplete" ? ([["Next attempt", retry]] as [string, string][]) : []),
      ],
      // Where the member can act: the membership's "Update payment method" form while it can still be paid.
      action:
        p.state === "past_due" && text(p.subscriptionId)
          ? { label: "Update your payment method", url: paymentMethodUrl(school.origin, text(p.subscriptionId)) }
          : { label: "See your membership", url: membershipsUrl(school.origin) },
    };
  },
};
