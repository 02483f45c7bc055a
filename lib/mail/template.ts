import type { Prisma } from "../db/generated/client";

type Tx = Prisma.TransactionClient;

/** What a template gets to render one mail: the school (its brand), the recipient and the row's data. */
export interface MailContext {
  tx: Tx;
  school: { id: string; name: string; brandColor: string | null; origin: string };
  to: string;
  /** The member the mail is about, as they are when the mail is sent. */
  user: { id: string; name: string; email: string; hasPassword: boolean; emailVerified: boolean } | null;
  params: Record<string, unknown>;
  now: Date;
}

/**
 * A mail's content as data, never markup: lib/mail/render.ts writes both the text and the HTML
 * part from it (escaping every value), so no template can inject HTML or a header.
 */
export interface MailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** The one button of the mail (also printed as a plain link in the text part). */
  action?: { label: string; url: string };
  /** Label/value rows (a receipt's lines). */
  rows?: [string, string][];
  /** Small print under the button, e.g. how long the link works. */
  note?: string;
}

/**
 * One kind of mail: one file in lib/mail/templates/, listed once in templates/index.ts. `render` runs
 * in the delivery transaction, so a one-time token it issues exists exactly when the mail is sent;
 * returning null drops the mail (nothing left to say, e.g. the email was verified meanwhile).
 */
export interface MailTemplate {
  kind: string;
  /** How the school's settings name it (docs/decisions.md, "Mail"). */
  description: string;
  render(ctx: MailContext): Promise<MailContent | null>;
}
