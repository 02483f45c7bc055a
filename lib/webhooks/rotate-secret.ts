import { authSecret } from "../auth/auth-secret";
import type { WebhookEndpoint } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { recordAudit, type AuditActor } from "../db/audit";
import { ENDPOINT_NOT_FOUND } from "./endpoint-input";
import { encryptWebhookSecret, generateWebhookSecret } from "./secret";

/** How long the replaced secret keeps signing beside the new one, so receivers can switch without losing a delivery. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Replaces the endpoint's secret with a new one, returned this once. For SECRET_OVERLAP_MS the old
 * secret still signs too (webhook-signature carries both, space-separated). Rotating again within the
 * overlap replaces the older secret: only the last two are ever valid.
 */
export async function rotateWebhookSecret(options: {
  schoolId: string;
  id: string;
  now: Date;
  /** Checked and written, then rolled back: the secret keeps working and the one returned is void. */
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<{ endpoint: WebhookEndpoint; secret: string }>> {
  const { schoolId, id, now, dryRun, actor } = options;
  if (!isUuid(id)) return failure(ENDPOINT_NOT_FOUND);
  const secret = generateWebhookSecret();
  return writeTransaction({ dryRun }, async (tx) => {
    const [current] = await tx.$queryRaw<{ secretCiphertext: string }[]>`
      SELECT "secretCiphertext" FROM "WebhookEndpoint" WHERE "id" = ${id}::uuid AND "schoolId" = ${schoolId}::uuid FOR UPDATE`;
    if (!current) return failure<{ endpoint: WebhookEndpoint; secret: string }>(ENDPOINT_NOT_FOUND);
    const endpoint = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        secretCiphertext: encryptWebhookSecret(secret, authSecret()),
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
        updatedAt: now,
      },
    });
    // The secrets themselves never reach the log: only that the signing secret changed, and until when the old one signs.
    const summary = { rotated: true, previousValidUntil: endpoint.previousSecretExpiresAt };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "webhook_endpoint.rotate_secret", target: { type: "webhook_endpoint", id }, summary } });
    return success({ endpoint, secret });
  });
}
