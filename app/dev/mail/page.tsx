import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { env } from "@/lib/env";
import { listFiledMail } from "@/lib/mail/outbox-folder";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Mail outbox (development)", robots: { index: false } };

// Development only (next dev): the mails filed in MAIL_OUTBOX_DIR when no MAIL_URL is set. A
// production build answers 404 here, whatever the configuration.
export default async function DevMailPage() {
  if (process.env.NODE_ENV === "production" || env().MAIL_URL) notFound();
  const mails = await listFiledMail();
  return (
    <main className="wrap">
      <h1>Mail outbox</h1>
      <p>
        Mails written to <code>{env().MAIL_OUTBOX_DIR}</code> (no MAIL_URL is set), newest first.
      </p>
      {mails.length ? null : <p>No mail yet.</p>}
      {mails.map((m) => (
        <article key={m.file} className="card">
          <h2>{m.subject}</h2>
          <p>
            To <strong>{m.to}</strong> · {m.kind} · {m.date}
          </p>
          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{m.text}</pre>
        </article>
      ))}
    </main>
  );
}
