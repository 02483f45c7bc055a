import type { DownloadAccess, Prisma } from "../db/generated/client";
import { recordAudit, type AuditActor } from "../db/audit";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { INVALID_EMAIL, findOrCreateMember, normalizeEmail } from "./users";

type Tx = Prisma.TransactionClient;

/**
 * Gives a member (joining the school when new) one of its digital downloads: a free download taken
 * on its page by a signed-in member. What may be given (published, free, the school's gate, not
 * yet owned) is the checkout's rule, checked by the caller (lib/billing/checkout-rules.ts). An
 * upsert: taking it twice returns the same access.
 */
export async function grantDownloadAccess(options: {
  schoolId: string;
  input: { downloadId: string; email: string; name?: string | null };
  now: Date;
  actor: AuditActor;
}): Promise<Payload<DownloadAccess>> {
  const { schoolId, input, now, actor } = options;
  const email = normalizeEmail(input.email);
  if (!email) return failure(INVALID_EMAIL);
  return writeTransaction({}, async (tx) => {
    const member = await findOrCreateMember(tx, { schoolId, email, name: input.name, now });
    if ("error" in member) return failure<DownloadAccess>(member.error);
    const { access } = await recordDownloadAccess(tx, { schoolId, downloadId: input.downloadId, user: member.user, paymentId: null, actor, now });
    return success(access);
  });
}

/**
 * A member's access to a download inside the caller's transaction (a free one taken, one bought at
 * checkout with its payment): an upsert; only the first writes its audit row. The webhook event of a
 * bought download is its payment.succeeded (which names downloadId and userId); the catalogue has
 * no event of its own for access (docs/decisions.md, "Checkout").
 */
export async function recordDownloadAccess(
  tx: Tx,
  options: { schoolId: string; downloadId: string; user: { id: string; email: string }; paymentId: string | null; actor: AuditActor; now: Date },
): Promise<{ access: DownloadAccess; created: boolean }> {
  const { schoolId, downloadId, user, paymentId, actor, now } = options;
  const inserted = await tx.downloadAccess.createMany({ data: [{ schoolId, downloadId, userId: user.id, paymentId, createdAt: now }], skipDuplicates: true });
  const access = await tx.downloadAccess.findUniqueOrThrow({ where: { downloadId_userId: { downloadId, userId: user.id } } });
  if (inserted.count) {
    const summary = { member: user.email, downloadId, paymentId };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "download_access.create", target: { type: "download_access", id: access.id }, summary } });
  }
  return { access, created: inserted.count > 0 };
}
