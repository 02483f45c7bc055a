// Reads the mails the e2e server filed in its outbox folder (no MAIL_URL: lib/mail/transport.ts).
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { E2E_MAIL_OUTBOX_DIR } from "../../playwright.config";

const decodeQuotedPrintable = (s: string) =>
  Buffer.from(s.replace(/=\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1").toString("utf8");

/** Waits (the server's worker polls every 500 ms) for a mail of `kind` to `to`; returns the path and query of its link to `linkPath`. */
export async function mailedLink(options: { to: string; kind: string; linkPath: string; timeoutMs?: number }): Promise<string> {
  const dir = path.resolve(E2E_MAIL_OUTBOX_DIR);
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.includes(`-${options.kind}-`));
    for (const name of names) {
      const raw = (await readFile(path.join(dir, name), "utf8")).replace(/\r\n/g, "\n");
      if (!new RegExp(`^To: ${options.to.replace(/[.+]/g, "\\$&")}$`, "im").test(raw)) continue;
      const links = decodeQuotedPrintable(raw).match(/https?:\/\/[^\s"<>]+/g) ?? [];
      const link = links.map((l) => new URL(l)).find((u) => u.pathname === options.linkPath);
      if (link) return link.pathname + link.search;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no ${options.kind} mail to ${options.to} in ${dir}`);
}
