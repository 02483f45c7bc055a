import { EMAIL_VERIFICATION_TTL_HOURS, issueEmailVerificationToken, verifyEmailUrl } from "../../auth/email-verification";
import type { MailTemplate } from "../template";

/** A link that proves the member reads this address; dropped when it is verified or changed meanwhile. */
export const verifyEmail: MailTemplate = {
  kind: "verify-email",
  description: "Email verification link, for new accounts and a changed email",
  async render({ tx, school, user, to, now }) {
    if (!user || user.emailVerified || user.email !== to) return null;
    const { token } = await issueEmailVerificationToken({ tx, userId: user.id, email: to, now });
    return {
      subject: `Confirm your email for ${school.name}`,
      heading: "Confirm your email address",
      paragraphs: [`Confirm that ${to} is your email address at ${school.name}.`],
      action: { label: "Confirm my email", url: verifyEmailUrl(school.origin, token) },
      note: `The link works for ${EMAIL_VERIFICATION_TTL_HOURS} hours. If you did not create an account, ignore this mail.`,
    };
  },
};
