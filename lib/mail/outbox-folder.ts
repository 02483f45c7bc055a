import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";

export interface FiledMail {
  file: string;
  to: string;
  subject: string;
  kind: string;
  date: string;
  text: string;
  /** The http(s) links of the text part (the mail's action), for a developer to follow. */
  links: string[];
}

/**
 * The name a mail is filed under (lib/mail/transport.ts): the time it was written first, so that
 * names sort by age, then its kind and outbox row id.
 */
export const filedMailName = (at: Date, kind: string, id: string) => `${at.toISOString().replace(/[:.]/g, "-")}-${kind}-${id}.eml`;
/** Only names filedMailName writes are listed: a stray file cannot jump the order or pick a path. */
const FILED_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[a-z][a-z-]*-[0-9a-f-]{36}\.eml$/;

const header = (head: string, name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(head)?.[1]?.trim() ?? "";

const decodeWords = (value: string) =>
  value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : Buffer.from(data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8"),
  );

function textPart(raw: string): string {
  const at = raw.search(/Content-Type: text\/plain/i);
  if (at < 0) return "";
  const [head, ...rest] = raw.slice(at).split(/\n\n/);
  const body = rest.join("\n\n").split(/\n--/)[0]!;
  if (/quoted-printable/i.test(head!)) {
    return Buffer.from(body.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");
  }
  if (/base64/i.test(head!)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

const linksIn = (text: string) => [...new Set(text.match(/\bhttps?:\/\/[^\s<>"]+/g) ?? [])].filter((l) => URL.canParse(l));

/**
 * The mails filed in MAIL_OUTBOX_DIR (no MAIL_URL), newest first, for the development page that
 * lists them (app/dev/mail). No name comes from a request: the folder is the configured one, and
 * only its own regular files named as filedMailName names them are read (a symbolic link or a
 * folder named like a mail is skipped, so nothing outside the folder is shown).
 */
export async function listFiledMail(options: { limit?: number } = {}): Promise<FiledMail[]> {
  const dir = path.resolve(env().MAIL_OUTBOX_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails: FiledMail[] = [];
  for (const file of names.filter((n) => FILED_NAME.test(n)).sort().reverse()) {
    if (mails.length >= (options.limit ?? 50)) break;
    const raw = (await readRegularFile(path.join(dir, file)))?.replace(/\r\n/g, "\n");
    if (raw === undefined) continue;
    const head = raw.split("\n\n")[0]!.replace(/\n[ \t]+/g, " ");
    const text = textPart(raw);
    mails.push({
      file,
      to: header(head, "To"),
      subject: decodeWords(header(head, "Subject")),
      kind: header(head, "X-Schoolhouse-Mail"),
      date: header(head, "Date"),
      text,
      links: linksIn(text),
    });
  }
  return mails;
}

/**
 * The file's text, or undefined for a symbolic link (O_NOFOLLOW), anything not a regular file (a
 * FIFO does not block the open: O_NONBLOCK), or a file gone meanwhile.
 */
async function readRegularFile(file: string): Promise<string | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return undefined;
  try {
    return (await handle.stat()).isFile() ? await handle.readFile("utf8") : undefined;
  } finally {
    await handle.close();
  }
}
