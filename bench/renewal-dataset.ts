// Due renewals for the bench's renewals scenario (issue 26: "a renewal run over 100,000 due
// subscriptions"): `count` members of the school, each with a live monthly subscription collected
// automatically with the test provider's succeeding card, whose period ended a minute ago, written by
// set-based INSERT … SELECT generate_series statements (bench/large-dataset.ts's style: seconds, not
// minutes). Ids are md5-derived from `tag`, so sets of one run never collide.

import { memberStatements } from "./dataset-members";

export interface DueRenewalsOptions {
  schoolId: string;
  /** A recurring plan of the school (the demo's Monthly). */
  planId: string;
  count: number;
  /** Names this set (letters, digits): several sets in one database stay apart. */
  tag: string;
}

/** The test provider's card that succeeds on and off session (lib/billing/test-provider.ts). */
export const SUCCEEDING_PAYMENT_METHOD = "pm_card_visa";

export function dueRenewalStatements(o: DueRenewalsOptions): string[] {
  if (!/^[0-9a-f-]{36}$/i.test(o.schoolId) || !/^[0-9a-f-]{36}$/i.test(o.planId)) throw new Error("schoolId and planId must be UUIDs");
  if (!/^[a-z0-9]+$/.test(o.tag)) throw new Error("tag must be letters and digits");
  if (!Number.isInteger(o.count) || o.count < 1) throw new Error(`count must be a positive integer, got ${o.count}`);
  const n = o.count - 1;
  const user = `md5('renew-${o.tag}-user-' || i)::uuid`;
  return [
    ...memberStatements({ schoolId: o.schoolId, last: n, userId: user, email: `'renew-${o.tag}-' || i || '@renewals.bench.test'`, name: "'Renewal Member ' || i" }),
    `INSERT INTO "Subscription" ("id", "schoolId", "userId", "planId", "state", "startAt", "currentPeriodStart", "currentPeriodEnd",
                                 "nextChargeDate", "collectionMethod", "paymentMethodId", "createdAt", "updatedAt")
     SELECT md5('renew-${o.tag}-sub-' || i)::uuid, '${o.schoolId}'::uuid, ${user}, '${o.planId}'::uuid, 'active',
            now() - interval '1 month', now() - interval '1 month' - interval '1 minute', now() - interval '1 minute',
            now() - interval '1 minute', 'charge_automatically', '${SUCCEEDING_PAYMENT_METHOD}', now() - interval '1 month', now()
       FROM generate_series(0, ${n}) AS i`,
    `ANALYZE "User", "SchoolMembership", "Subscription"`,
  ];
}
