import { isUuid } from "../core/ids";
import { failure, success, type Payload, writeTransaction } from "../db/write-transaction";
import { recordAudit, type AuditActor } from "../db/audit";
import { ENDPOINT_NOT_FOUND } from "./endpoint-input";

/** Deletes an endpoint with its deliveries and their attempts (events stay: they belong to the school). */
export async function deleteWebhookEndpoint(options: {
  schoolId: string;
  id: string;
  dryRun?: boolean;
  /** Who asks: written to the audit log with the change (lib/db/audit.ts). */
  actor: AuditActor;
  /** The audit row's time. */
  now: Date;
}): Promise<Payload<{ id: string }>> {
  const { schoolId, id, actor, now } = options;
  if (!isUuid(id)) return failure(ENDPOINT_NOT_FOUND);
  return writeTransaction({ dryRun: options.dryRun }, async (tx) => {
    const [deleted] = await tx.$queryRaw<{ url: string; events: string[] }[]>`
      DELETE FROM "WebhookEndpoint" WHERE "id" = ${id}::uuid AND "schoolId" = ${schoolId}::uuid RETURNING "url", "events"`;
    if (!deleted) return failure<{ id: string }>(ENDPOINT_NOT_FOUND);
    await recordAudit(tx, { actor, now, entry: { schoolId, action: "webhook_endpoint.delete", target: { type: "webhook_endpoint", id }, summary: { url: deleted.url, events: deleted.events } } });
    return success({ id });
  });
}
