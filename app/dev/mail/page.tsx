import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { env } from "@/lib/env";
import { listFiledMail } from "@/lib/mail/outbox-folder";
import { FiledMailList } from "@/lib/mail/outbox-list";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Mail outbox (development)", robots: { index: false } };

// Development only (next dev): the mails filed in MAIL_OUTBOX_DIR when no MAIL_URL is set. A
// production build answers 404 here, whatever the configuration. The page reads no search params:
// nothing of a request names a file.
export default async function DevMailPage() {
  if (process.env.NODE_ENV === "production" || env().MAIL_URL) notFound();
  return <FiledMailList dir={env().MAIL_OUTBOX_DIR} mails={await listFiledMail()} />;
}
