import type { FiledMail } from "./outbox-folder";

/**
 * What a developer sees at /dev/mail (app/dev/mail/page.tsx): each filed mail, newest first, with
 * its subject, recipient, kind and date, its links to follow, and its text part. Every value is
 * text to React (escaped), never markup: a mail's HTML part is not rendered here.
 */
export function FiledMailList({ dir, mails }: { dir: string; mails: FiledMail[] }) {
  return (
    <main className="wrap">
      <h1>Mail outbox</h1>
      <p>
        Mails written to <code style={{ overflowWrap: "anywhere" }}>{dir}</code> (no MAIL_URL is set), newest first.
      </p>
      {mails.length ? null : <p>No mail yet.</p>}
      {mails.map((m) => (
        <article key={m.file} className="card">
          <h2>{m.subject}</h2>
          <p>
            To <strong>{m.to}</strong> · {m.kind} · {m.date}
          </p>
          {m.links.length ? (
            <ul aria-label={`Links in “${m.subject}”`} style={{ overflowWrap: "anywhere" }}>
              {m.links.map((link) => (
                <li key={link}>
                  <a href={link}>{link}</a>
                </li>
              ))}
            </ul>
          ) : null}
          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{m.text}</pre>
        </article>
      ))}
    </main>
  );
}
