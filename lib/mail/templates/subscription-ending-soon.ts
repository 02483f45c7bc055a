import type { MailTemplate } from "../template";
import { formatDay, membershipsUrl, text } from "./billing-format";

/** A scheduled cancellation is near: when access ends, and that the member can still keep it. */
export const subscriptionEndingSoon: MailTemplate = {
  kind: "subscription-ending-soon",
  description: "Membership ending soon: a few days before a scheduled cancellation takes effect, with how to keep it",
  async render({ school, params: p }) {
    const plan = text(p.plan);
    const day = formatDay(p.endAt);
    if (!day) return null;
    return {
      subject: `Your ${plan} membership at ${school.name} ends on ${day}`,
      heading: "Your membership ends soon",
      paragraphs: [
        `Your ${plan} membership at ${school.name} ends on ${day}, as asked. You keep access until then.`,
        "Changed your mind? Keep your membership on your account page before that day: nothing else changes.",
      ],
      action: { label: "Keep your membership", url: membershipsUrl(school.origin) },
    };
  },
};
