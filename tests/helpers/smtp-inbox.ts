// A real SMTP server (the npm smtp-server package) on a random loopback port, keeping every mail it
// accepts, for tests of lib/mail: what arrived is read back from the raw message.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpInbox {
  url: string;
  mails: ReceivedMail[];
  /** Answer RCPT TO with this SMTP code (e.g. 450, 550) until set back to null. */
  refuseWith: number | null;
  close(): Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox: SmtpInbox = { url: "", mails: [], refuseWith: null, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (inbox.refuseWith) return callback(Object.assign(new Error("refused by the test"), { responseCode: inbox.refuseWith }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  // A server under test that is stopped (or SIGKILLed) mid-mail resets its connection; smtp-server
  // reports that as an 'error' event, which unhandled would crash the test runner.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  inbox.url = `smtp://127.0.0.1:${port}`;
  inbox.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return inbox;
}

/** The headers of a raw message (unfolded), names lower-cased; repeated names keep every value. */
export function headersOf(raw: string): [string, string][] {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  return head.split(/\r?\n/).map((line) => {
    const i = line.indexOf(":");
    return [line.slice(0, i).toLowerCase(), line.slice(i + 1).trim()] as [string, string];
  });
}

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(s.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");

/** The decoded body of the message's part of this content type (text/plain or text/html). */
export function partOf(raw: string, type: "text/plain" | "text/html"): string {
  const at = raw.search(new RegExp(`Content-Type: ${type.replace("/", "\\/")}`, "i"));
  if (at < 0) throw new Error(`no ${type} part`);
  const part = raw.slice(at);
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n").split(/\r?\n--/)[0]!;
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head!)) return decodeQuotedPrintable(body);
  if (/Content-Transfer-Encoding: base64/i.test(head!)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** The first link in the text part whose path is `path`, as a URL. */
export function linkIn(raw: string, path: string): URL {
  const text = partOf(raw, "text/plain");
  const found = text.match(/https?:\/\/\S+/g)?.map((l) => new URL(l)).find((u) => u.pathname === path);
  if (!found) throw new Error(`no ${path} link in:\n${text}`);
  return found;
}
