import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";

export interface FiledMail {
  file: string;
  to: string;
  subject: string;
  kind: string;
  date: string;
  text: string;
}

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

/**
 * The mails filed in MAIL_OUTBOX_DIR (no MAIL_URL), newest first, for the development page that
 * lists them (app/dev/mail). Only the folder's own .eml files are read.
 */
export async function listFiledMail(options: { limit?: number } = {}): Promise<FiledMail[]> {
  const dir = path.resolve(env().MAIL_OUTBOX_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = names.filter((n) => /^[\w.-]+\.eml$/.test(n)).sort().reverse().slice(0, options.limit ?? 50);
  return Promise.all(
    files.map(async (file) => {
      const raw = (await readFile(path.join(dir, file), "utf8")).replace(/\r\n/g, "\n");
      const head = raw.split("\n\n")[0]!.replace(/\n[ \t]+/g, " ");
      return {
        file,
        to: header(head, "To"),
        subject: decodeWords(header(head, "Subject")),
        kind: header(head, "X-Schoolhouse-Mail"),
        date: header(head, "Date"),
        text: textPart(raw),
      };
    }),
  );
}
