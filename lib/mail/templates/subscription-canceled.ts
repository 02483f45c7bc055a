import { membershipsUrl } from "./billing-format";
import { membershipEndMail } from "./membership-end";

/** A membership ended by cancellation: scheduled, immediate, or after the last failed payment. */
export const subscriptionCanceled = membershipEndMail({
  kind: "subscription-canceled",
  description: "Membership canceled: when it ended and why (including after the last failed payment)",
  content: ({ school, plan, day, params: p }) => {
    const when = day ? ` on ${day}` : "";
    const paragraphs =
      p.cancelType === "payment_failed"
        ? [
            `Your ${plan} membership at ${school.name} ended${when}: we could not collect its payment after several attempts.`,
            "You can subscribe again at any time, with a card that can pay.",
          ]
        : [`Your ${plan} membership at ${school.name} ended${when}. Thank you for being a member.`, "You can subscribe again at any time."];
    return {
      subject: `Your ${plan} membership at ${school.name} has ended`,
      heading: "Your membership has ended",
      paragraphs,
      action: { label: "See your account", url: membershipsUrl(school.origin) },
    };
  },
});
