import type { MailContent, MailContext, MailTemplate } from "../template";
import { formatDay, text } from "./billing-format";

/** What a mail about a membership's end says it of: the plan's name and the end day, from the row's params. */
export interface MembershipEnd {
  school: MailContext["school"];
  plan: string;
  /** The day access ends, or null when the row has no (valid) endAt. */
  day: string | null;
  params: MailContext["params"];
}

/**
 * The mails about a membership's end (ending soon, canceled) read the plan and the end day from
 * their params the same way; each says its own words in `content`.
 */
export function membershipEndMail(options: { kind: string; description: string; content: (end: MembershipEnd) => MailContent | null }): MailTemplate {
  return {
    kind: options.kind,
    description: options.description,
    async render({ school, params }) {
      return options.content({ school, plan: text(params.plan), day: formatDay(params.endAt), params });
    },
  };
}
