// Environment for one suite (a file or a describe block): set before its tests, restored after,
// with the env cache reset both times so lib/env.ts reads the change.
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { startSmtpInbox, type SmtpInbox } from "./smtp-inbox";

export function envForSuite(values: Record<string, string>): void {
  const before = new Map<string, string | undefined>();
  beforeAll(() => {
    for (const [name, value] of Object.entries(values)) {
      before.set(name, process.env[name]);
      process.env[name] = value;
    }
    resetEnvCache();
  });
  afterAll(() => {
    for (const [name, value] of before) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetEnvCache();
  });
}

/** The process's mail goes to a real SMTP server of this suite's own (MAIL_URL); the getter is its inbox. */
export function smtpInboxForSuite(): () => SmtpInbox {
  let inbox: SmtpInbox | undefined;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    process.env.MAIL_URL = inbox.url;
    resetEnvCache();
  });
  afterAll(async () => {
    delete process.env.MAIL_URL;
    resetEnvCache();
    await inbox?.close();
  });
  return () => {
    if (!inbox) throw new Error("the suite's SMTP inbox is not started yet (use it inside a test or hook)");
    return inbox;
  };
}
