import { issuePasswordSetupToken, PASSWORD_SETUP_TTL_HOURS, passwordSetupUrl } from "../../auth/password-setup";
import type { MailTemplate } from "../template";

/** To a new member: welcome, and a link to choose their password when they have none yet. */
export const welcome: MailTemplate = {
  kind: "welcome",
  description: "Welcome, with the link to choose a password, when a member is created",
  async render({ tx, school, user, now }) {
    if (!user) return null;
    const content = {
      subject: `Welcome to ${school.name}`,
      heading: `Welcome to ${school.name}, ${user.name}`,
      paragraphs: [`You are now a member of ${school.name}.`],
    };
    if (user.hasPassword) {
      return { ...content, paragraphs: [...content.paragraphs, "Sign in with your email and password."], action: { label: "Sign in", url: `${school.origin}/login` } };
    }
    const { token } = await issuePasswordSetupToken({ tx, userId: user.id, now });
    return {
      ...content,
      paragraphs: [...content.paragraphs, "Choose a password to sign in."],
      action: { label: "Choose your password", url: passwordSetupUrl(school.origin, token) },
      note: `The link works once, for ${PASSWORD_SETUP_TTL_HOURS} hours. If you did not expect this mail, ignore it.`,
    };
  },
};
