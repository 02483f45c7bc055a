import { issuePasswordSetupToken, passwordSetupUrl } from "../../auth/password-setup";
import type { MailTemplate } from "../template";

/** How long a reset link works. */
export const PASSWORD_RESET_TTL_HOURS = 1;

/** The "forgot password" link: the set-password page, with a token good for one hour. */
export const passwordReset: MailTemplate = {
  kind: "password-reset",
  description: "Password reset link, when a member asks for one",
  async render({ tx, school, user, to, now }) {
    if (!user || user.email !== to) return null;
    const { token } = await issuePasswordSetupToken({ tx, userId: user.id, now, ttlHours: PASSWORD_RESET_TTL_HOURS });
    return {
      subject: `Reset your password for ${school.name}`,
      heading: "Reset your password",
      paragraphs: [`Someone asked to reset the password of ${to} at ${school.name}. Choose a new password with the link below; it also signs you out everywhere.`],
      action: { label: "Choose a new password", url: passwordSetupUrl(school.origin, token) },
      note: `The link works once, for ${PASSWORD_RESET_TTL_HOURS} hour. If you did not ask for it, ignore this mail: your password stays as it is.`,
    };
  },
};
