import type { AuditEntry } from "../db/audit";
import type { SubscriptionRecord } from "./record-types";

/** The audit entry of a new subscription (both paths: create-subscription.ts's transaction and subscribe-new-member.ts's statement). */
export function subscriptionCreatedAudit(record: SubscriptionRecord, memberCreated: boolean): AuditEntry {
  return {
    schoolId: record.schoolId,
    action: "subscription.create",
    target: { type: "subscription", id: record.id },
    summary: {
      member: record.user.email,
      memberCreated,
      planId: record.planId,
      state: record.state,
      collectionMethod: record.collectionMethod,
      currentPeriodEnd: record.currentPeriodEnd,
      endAt: record.endAt,
    },
  };
}
