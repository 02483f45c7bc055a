import { membershipsUrl } from "./billing-format";
import { membershipEndMail } from "./membership-end";

/** A scheduled cancellation is near: when access ends, and that the member can still keep it. */
export const subscriptionEndingSoon = membershipEndMail({
  kind: "subscription-ending-soon",
  description: "Membership ending soon: a few days before a scheduled cancellation takes effect, with how to keep it",
  content: ({ school, plan, day }) =>
    day
      ? {
          subject: `Your ${plan} membership at ${school.name} ends on ${day}`,
          heading: "Your membership ends soon",
          paragraphs: [
            `Your ${plan} membership at ${school.name} ends on ${day}, as asked. You keep access until then.`,
            "Changed your mind? Keep your membership on your account page before that day: nothing else changes.",
          ],
          action: { label: "Keep your membership", url: membershipsUrl(school.origin) },
        }
      : null,
});
