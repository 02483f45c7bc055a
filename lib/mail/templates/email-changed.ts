import type { MailTemplate } from "../template";
import { text } from "./billing-format";

/**
 * Sent to the previous address when a member changes their email: the one place the real owner
 * still reads if someone else changed it (a reset link would go to the new address, so none here).
 */
export const emailChanged: MailTemplate = {
  kind: "email-changed",
  description: "Email changed: a notice to the previous address, saying what it was changed to and what to do if it was not the member",
  async render({ school, to, params: p }) {
    const changedTo = text(p.newEmail);
    if (!changedTo) return null;
    return {
      subject: `Your email at ${school.name} was changed`,
      heading: "Your email was changed",
      paragraphs: [
        `The email of your account at ${school.name} was changed from ${to} to ${changedTo}. You now sign in with the new one.`,
        `If this wasn't you, someone who knows your password changed it: contact ${school.name} at once, replying to this mail, so they can give the account back to you.`,
      ],
      note: "We sent this notice to your previous address, which no longer signs in.",
    };
  },
};
