import { authSecret } from "../auth/auth-secret";
import type { WebhookEndpoint } from "../db/generated/client";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { recordAudit, type AuditActor } from "../db/audit";
import { MAX_ENDPOINTS_PER_SCHOOL, TOO_MANY_ENDPOINTS, checkDescription, checkEndpointUrl, checkEventTypes } from "./endpoint-input";
import { encryptWebhookSecret, generateWebhookSecret } from "./secret";

export interface CreateEndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

/**
 * Registers an endpoint; the whsec_ secret is generated here and returned this once only. With
 * dryRun everything is checked and written, then rolled back (the secret returned is then void).
 */
export async function createWebhookEndpoint(options: {
  schoolId: string;
  input: CreateEndpointInput;
  now: Date;
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<Payload<{ endpoint: WebhookEndpoint; secret: string }>> {
  const { schoolId, input, now, dryRun, actor } = options;
  const url = checkEndpointUrl(input.url, schoolId);
  if ("error" in url) return failure(url.error);
  const events = checkEventTypes(input.events);
  if ("error" in events) return failure(events.error);
  const description = checkDescription(input.description);
  if ("error" in description) return failure(description.error);
  const secret = generateWebhookSecret();
  return writeTransaction({ dryRun }, async (tx) => {
    // Serialises concurrent creations of one school so the limit holds.
    await tx.$queryRaw`SELECT "id" FROM "School" WHERE "id" = ${schoolId}::uuid FOR UPDATE`;
    if ((await tx.webhookEndpoint.count({ where: { schoolId } })) >= MAX_ENDPOINTS_PER_SCHOOL) {
      return failure<{ endpoint: WebhookEndpoint; secret: string }>(TOO_MANY_ENDPOINTS);
    }
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        schoolId,
        url: url.url,
        events: events.events,
        description: description.description,
        secretCiphertext: encryptWebhookSecret(secret, authSecret()),
        createdAt: now,
        updatedAt: now,
      },
    });
    const summary = { url: endpoint.url, events: endpoint.events, description: endpoint.description };
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "webhook_endpoint.create", target: { type: "webhook_endpoint", id: endpoint.id }, summary } });
    return success({ endpoint, secret });
  });
}
