// The bench's servers run in production, which on Postgres needs a mail server while schools send
// mail (docs/deploy.md, "Mail"). One SMTP server per bench run accepts every mail and keeps none,
// so both backends send theirs the way production does, at the same cost, to nowhere.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

let url = "";

/** Starts the sink once; its smtp:// URL. It never keeps the process alive. */
export async function startMailSink(): Promise<string> {
  if (url) return url;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("end", () => callback());
      stream.resume();
    },
  });
  // A bench server stopped mid-mail resets its connection; that is the client's end, not the sink's,
  // and smtp-server reports it as an 'error' event that would otherwise crash the bench.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.server.unref();
  url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return url;
}

/** The sink's URL once started ("" before: the server then files mails in its outbox folder). */
export const mailSinkUrl = () => url;
