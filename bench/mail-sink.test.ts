import { connect } from "node:net";
import { createTransport } from "nodemailer";
import { describe, expect, it } from "vitest";
import { startMailSink } from "./mail-sink";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The bench stops its servers while they may be mid-mail. CI once died of exactly this: smtp-server
// emits a reset inside a transaction as 'error' on the SMTPServer, and with no listener the whole
// bench process went down.
describe("the bench's mail sink", () => {
  it("outlives a client that resets its connection mid-mail and keeps accepting mail", async () => {
    const { port } = new URL(await startMailSink());
    const socket = connect(Number(port), "127.0.0.1");
    const replies: string[] = [];
    socket.on("data", (d: Buffer) => replies.push(d.toString()));
    const reply = async (n: number) => {
      while (replies.length < n) await pause(10);
    };
    await reply(1); // the greeting: talking before it is refused
    const commands = ["EHLO bench", "MAIL FROM:<a@example.test>", "RCPT TO:<b@example.test>", "DATA"];
    for (const [i, command] of commands.entries()) {
      socket.write(`${command}\r\n`);
      await reply(i + 2);
    }
    expect(replies.at(-1)).toMatch(/^354/);
    socket.write("Subject: half a mail\r\n\r\nand then");
    await pause(50);
    socket.resetAndDestroy();
    await pause(200);
    const info = await createTransport(`smtp://127.0.0.1:${port}`).sendMail({ from: "a@example.test", to: "b@example.test", subject: "after", text: "ok" });
    expect(info.accepted).toEqual(["b@example.test"]);
  });
});
