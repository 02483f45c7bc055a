import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { parseConnectionUrl } from "nodemailer/lib/shared";
import { env } from "../env";
import { filedMailName } from "./outbox-folder";

export interface OutgoingMail {
  /** The outbox row's id: the Message-ID, the same on every attempt. */
  id: string;
  kind: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

let smtp: { url: string; transporter: Transporter } | undefined;
// Without MAIL_URL nodemailer only builds the message; it is written to MAIL_OUTBOX_DIR.
const fileBuilder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

/** Where mails go: the SMTP server of MAIL_URL, else the outbox folder (the embedded demo). */
export const mailDestination = (): "smtp" | "folder" => (env().MAIL_URL ? "smtp" : "folder");

function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) {
    smtp?.transporter.close();
    // Bounded waits: a hung server costs one attempt, retried later, never a stuck worker. They are
    // transport options: as createTransport's second argument (beside a URL) they were only message
    // defaults, and nodemailer's own waits (2 min, 30 s, 10 min) applied. Pooled: one connection
    // serves the mails of a drain instead of a new connection, greeting and QUIT per mail (two per new
    // member; docs/benchmarks.md, "createSubscription's cost").
    smtp = {
      url,
      transporter: nodemailer.createTransport({ ...parseConnectionUrl(url), pool: true, maxConnections: 2, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }),
    };
  }
  return smtp.transporter;
}

/** Sends (or files) one mail; throws when the server refuses it (the error's responseCode tells 4xx from 5xx). */
export async function transmit(mail: OutgoingMail, log: (line: string) => void = (l) => console.log(l)): Promise<void> {
  const e = env();
  const message = {
    messageId: `<${mail.id}@${e.PLATFORM_DOMAIN}>`,
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: { "X-Schoolhouse-Mail": mail.kind },
    // Mails are built from our own strings only: no attachment or URL is ever fetched into one.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  if (e.MAIL_URL) {
    await smtpTransport(e.MAIL_URL).sendMail(message);
    return;
  }
  const info = await fileBuilder.sendMail(message);
  const dir = path.resolve(e.MAIL_OUTBOX_DIR);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, filedMailName(new Date(), mail.kind, mail.id));
  await writeFile(file, info.message as Buffer);
  log(`mail: ${mail.kind} to ${mail.to} written to ${file}${mail.links.map((l) => `\n  ${l}`).join("")}`);
}
