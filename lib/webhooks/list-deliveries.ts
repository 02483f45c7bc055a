import { db } from "../db/client";
import type { Prisma, WebhookDeliveryStatus } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { QueryInputError } from "../core/page";
import type { DeliveryRecord } from "./presenter";

export interface DeliveryFilter {
  endpointId?: string | null;
  eventId?: string | null;
  status?: string | null;
  first?: number | null;
}

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const satisfies readonly WebhookDeliveryStatus[];
const STATUSES: readonly WebhookDeliveryStatus[] = WEBHOOK_DELIVERY_STATUSES;

/** The school's deliveries, newest first, each with its attempts (oldest first). first: 1 to 100 (default 50). */
export async function listWebhookDeliveries(options: { schoolId: string; filter: DeliveryFilter }): Promise<DeliveryRecord[]> {
  const { schoolId, filter } = options;
  const first = filter.first ?? 50;
  if (!Number.isInteger(first) || first < 1 || first > 100) throw new QueryInputError("first must be between 1 and 100");
  if (filter.status && !(STATUSES as readonly string[]).includes(filter.status)) throw new QueryInputError(`status must be one of ${STATUSES.join(", ")}`);
  // An id that cannot exist matches nothing rather than being an error, like subscription(id).
  if ((filter.endpointId && !isUuid(filter.endpointId)) || (filter.eventId && !isUuid(filter.eventId))) return [];
  const where: Prisma.WebhookDeliveryWhereInput = { schoolId };
  if (filter.endpointId) where.endpointId = filter.endpointId;
  if (filter.eventId) where.eventId = filter.eventId;
  if (filter.status) where.status = filter.status as WebhookDeliveryStatus;
  return db().webhookDelivery.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: first,
    include: { event: true, attempts: { orderBy: { attemptedAt: "asc" }, take: 20 } },
  });
}
