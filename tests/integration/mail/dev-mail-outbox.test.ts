// What a developer sees at /dev/mail (app/dev/mail/page.tsx): mails written through the mail module
// without MAIL_URL (the outbox folder), listed back newest first with their subject, recipient, kind
// and links, every value escaped in the page's markup; nothing outside the folder is ever shown.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import DevMailPage from "@/app/dev/mail/page";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { drainMail } from "@/lib/mail/deliver";
import { filedMailName, listFiledMail } from "@/lib/mail/outbox-folder";
import { FiledMailList } from "@/lib/mail/outbox-list";
import { transmit } from "@/lib/mail/transport";
import { CREATE, PLANS, freshEmail, gql } from "../admin-api/helpers";
import { appForSuite } from "../../helpers/app-for-suite";

const app = appForSuite({ host: "demo.localhost" });
let dir: string;
const saved = { MAIL_URL: process.env.MAIL_URL, MAIL_OUTBOX_DIR: process.env.MAIL_OUTBOX_DIR };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "schoolhouse-dev-mail-"));
  delete process.env.MAIL_URL;
  process.env.MAIL_OUTBOX_DIR = dir;
  resetEnvCache();
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db().mailMessage.deleteMany({});
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir);
});

/** A new member through the Admin API, their welcome and verification mails filed; the links the log printed. */
async function newMemberFiled(tag: string) {
  const email = freshEmail(tag);
  const r = await gql(app, CREATE, { input: { email, name: "Outbox Person", planId: PLANS.monthly } });
  expect(r.body.data.createSubscription.errors).toEqual([]);
  const log: string[] = [];
  await drainMail({ now, budgetMs: 20_000, log: (l) => log.push(l) });
  return { email, printed: log.join("\n").match(/https?:\/\/\S+/g) ?? [] };
}

const markup = async () => renderToStaticMarkup(createElement(FiledMailList, { dir, mails: await listFiledMail() }));

describe("the development outbox page", () => {
  it("lists the filed mails newest first: subject, recipient, kind, date, the links the log printed", async () => {
    const first = await newMemberFiled("outbox-first");
    await new Promise((r) => setTimeout(r, 5));
    const second = await newMemberFiled("outbox-second");
    const listed = await listFiledMail();
    expect(listed.map((m) => m.to)).toEqual([second.email, second.email, first.email, first.email]);
    expect(listed.slice(0, 2).map((m) => m.kind).sort()).toEqual(["verify-email", "welcome"]);
    const subjects = new Map(listed.map((m) => [m.kind, m.subject]));
    expect(subjects.get("welcome")).toBe("Welcome to Schoolhouse Demo Academy");
    expect(subjects.get("verify-email")).toBe("Confirm your email for Schoolhouse Demo Academy");
    expect(listed.every((m) => !Number.isNaN(Date.parse(m.date)))).toBe(true);
    // The links are the ones the mail module printed to the log: one per mail (its action).
    for (const { email, printed } of [first, second]) {
      const links = listed.filter((m) => m.to === email).flatMap((m) => m.links);
      expect(links.sort()).toEqual([...printed].sort());
      expect(links.some((l) => new URL(l).pathname === "/account/verify-email")).toBe(true);
    }
    const html = await markup();
    for (const link of listed.flatMap((m) => m.links)) expect(html).toContain(`<a href="${link.replaceAll("&", "&amp;")}">`);
    // Newest first on the page too.
    expect(html.indexOf(second.email)).toBeLessThan(html.indexOf(first.email));
  });

  it("shows what a mail says as text: markup in a subject, a body or a link is escaped, only http(s) links are links", async () => {
    await transmit(
      {
        id: randomUUID(),
        kind: "welcome",
        from: { name: "Demo <b>School</b>", address: "no-reply@localhost" },
        to: "dev@example.test",
        subject: `<script>alert("subject")</script> & "more"`,
        text: `Hello <img src=x onerror=alert(1)>\nhttps://demo.localhost/a?b=1&c="><script>alert(2)</script>\njavascript:alert(3)\n`,
        html: "<p>not shown</p>",
        links: [],
      },
      () => {},
    );
    const [mail] = await listFiledMail();
    expect(mail).toMatchObject({ to: "dev@example.test", kind: "welcome", subject: `<script>alert("subject")</script> & "more"` });
    expect(mail!.links).toEqual(["https://demo.localhost/a?b=1&c="]);
    const html = await markup();
    expect(html).not.toMatch(/<script|<img|<b>|javascript:alert\(3\)"|not shown/);
    expect(html).toContain("<h2>&lt;script&gt;alert(&quot;subject&quot;)&lt;/script&gt; &amp; &quot;more&quot;</h2>");
    expect(html).toContain("Hello &lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain('<a href="https://demo.localhost/a?b=1&amp;c=">');
  });

  it("reads only the folder's own mail files: a link out of the folder, a folder, a FIFO or a stray name is never shown", async () => {
    const { email } = await newMemberFiled("outbox-own");
    const outside = await mkdtemp(path.join(tmpdir(), "schoolhouse-dev-mail-outside-"));
    try {
      const secret = path.join(outside, "secret.eml");
      await writeFile(secret, "To: secret@outside.test\nSubject: outside the folder\n\nContent-Type: text/plain\n\nsecret https://outside.test/\n");
      // Named as the newest mail would be, so each would come first if it were read.
      const later = (minutes: number) => filedMailName(new Date(Date.now() + minutes * 60_000), "welcome", randomUUID());
      await symlink(secret, path.join(dir, later(1)));
      await mkdir(path.join(dir, later(2)));
      const fifo = path.join(dir, later(3));
      expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
      for (const stray of ["zzz.eml", "..%2F..%2Foutside%2Fsecret.eml", "secret.eml"]) await writeFile(path.join(dir, stray), await readFile(secret));
      const listed = await listFiledMail();
      expect(listed.map((m) => m.to)).toEqual([email, email]);
      expect(await markup()).not.toMatch(/secret|outside/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("the page lists them outside production without MAIL_URL, and is a 404 with MAIL_URL", async () => {
    const { email } = await newMemberFiled("outbox-page");
    // The page takes no props: no search param or path segment reaches the listing.
    expect(DevMailPage.length).toBe(0);
    const html = renderToStaticMarkup(await DevMailPage());
    expect(html).toContain("<h1>Mail outbox</h1>");
    expect(html).toContain(email);
    process.env.MAIL_URL = "smtp://127.0.0.1:1";
    resetEnvCache();
    try {
      await expect(DevMailPage()).rejects.toMatchObject({ digest: expect.stringContaining("404") });
    } finally {
      delete process.env.MAIL_URL;
      resetEnvCache();
    }
  });
});
