// createSubscription's hot case, a person the platform does not know yet, as ONE statement through
// the raw driver (docs/benchmarks.md, "Prisma vs the raw driver"). Profiled on the embedded
// database, the general path spent 20 ms of CPU per call: seven statements (BEGIN, user,
// membership, member.created, subscription, subscription.created, COMMIT), each compiled by Prisma
// and parsed and planned by PGlite on the server's one thread, with Prisma's interactive
// transaction holding PGlite's lock between them. Here the same rows are written by one statement
// of data-modifying CTEs: atomic on its own (no transaction to open), one round trip on Postgres.
//
// The new member's mails (welcome, email verification: findOrCreateMember's mailNewMember) are
// outbox rows of the same statement (lib/mail/enqueue.ts, mailCtes), and so is its audit row
// (lib/db/audit.ts, auditInsert).
//
// Everything is written only when the user insert wins, and it runs only while ContentVersion still
// equals the version the caller read the plan at (lib/membership/plan-cache.ts), so a plan cached in
// process is never used after it changed. When the email already exists (or a concurrent call
// created it first) or the plan may have changed, nothing is written and the caller takes the general path
// (lib/membership/create-subscription.ts), which handles existing users, settling and the live
// subscription rule. A brand-new user has no subscriptions, so neither applies here.
import { randomUUID } from "node:crypto";
import { rawQuery } from "../db/raw";
import type { MembershipPlan, Subscription, User } from "../db/generated/client";
import { outboxRows } from "../db/outbox";
import { outboxFanOut } from "../db/outbox-fan-out";
import { auditInsert, auditRows, type AuditActor } from "../db/audit";
import { mailCtes } from "../mail/enqueue";
import { presentSubscription } from "./presenter";
import type { SubscriptionRecord } from "./record-types";
import { memberCreatedEvent, NEW_MEMBER_ROLES } from "./users";
import { subscriptionCreatedAudit } from "./audit-entries";

type Periods = Pick<Subscription, "startAt" | "currentPeriodStart" | "currentPeriodEnd" | "endAt" | "nextChargeDate">;

// The user and membership rows are findOrCreateMember's (./users.ts: name, roles, member.created);
// the events' fan-out is the outbox's own (lib/db/outbox-fan-out.ts).
const SQL = `
WITH u AS (
  INSERT INTO "User" ("id", "email", "name", "emailVerified", "createdAt", "updatedAt")
  SELECT $1::uuid, $2, $3, false, $4, $4
   WHERE (SELECT "version" FROM "ContentVersion" WHERE "id" = 1) = $15::bigint
  ON CONFLICT ("email") DO NOTHING
  RETURNING "id"
), m AS (
  INSERT INTO "SchoolMembership" ("id", "schoolId", "userId", "roles", "createdAt", "updatedAt")
  SELECT gen_random_uuid(), $5::uuid, u."id", ARRAY(SELECT jsonb_array_elements_text($16::jsonb)), $4, $4 FROM u
  RETURNING "id"
), s AS (
  INSERT INTO "Subscription" ("id", "schoolId", "userId", "planId", "state", "startAt", "currentPeriodStart",
                              "currentPeriodEnd", "endAt", "nextChargeDate", "createdAt", "updatedAt")
  SELECT $6::uuid, $5::uuid, u."id", $7::uuid, 'active', $8, $9, $10, $11, $12, $13, $13 FROM u
  RETURNING "id"
), ${outboxFanOut({ rows: "$14", now: "$13", when: "EXISTS (SELECT 1 FROM s) AND EXISTS (SELECT 1 FROM m)" })},
${mailCtes({ name: "mails", kinds: ["welcome", "verify-email"], user: "u", schoolId: "$5::uuid", to: "$2", now: "$13", when: "EXISTS (SELECT 1 FROM s) AND EXISTS (SELECT 1 FROM m)" })},
${auditInsert({ name: "audit_rows", rows: "$17", when: "EXISTS (SELECT 1 FROM s) AND EXISTS (SELECT 1 FROM m)" })}
SELECT (SELECT count(*) FROM s)::int AS "created", (SELECT count(*) FROM outbox_events)::int AS "events"`;

/**
 * Creates the user, their membership of the school (role student), the subscription and the
 * member.created and subscription.created events in one statement. Null when a user with this
 * email exists, or content (the plan among it) changed since `contentVersion`: nothing was written.
 */
export async function subscribeNewMember(options: {
  schoolId: string;
  email: string;
  name: string;
  plan: MembershipPlan;
  periods: Periods;
  now: Date;
  /** The content version the plan was read at: nothing is written unless it is still current. */
  contentVersion: bigint;
  /** Who asks: its audit row is written by the same statement (lib/db/audit.ts). */
  actor: AuditActor;
}): Promise<SubscriptionRecord | null> {
  const { schoolId, email, name, plan, periods, now } = options;
  // As Prisma's @default(now()) / @updatedAt would: the user row's own timestamps are wall-clock.
  const stamped = new Date();
  const user: User = { id: randomUUID(), email, name, passwordHash: null, avatarUrl: null, emailVerified: false, createdAt: stamped, updatedAt: stamped };
  const subscription: Subscription = {
    id: randomUUID(),
    schoolId,
    userId: user.id,
    planId: plan.id,
    state: "active",
    ...periods,
    cancelAt: null,
    canceledAt: null,
    cancelReason: null,
    cancelType: null,
    // The fast path is the spec's default collection (createSubscription sends the others elsewhere).
    collectionMethod: "external",
    paymentMethodId: null,
    chargeLockedUntil: null,
    pausedAt: null,
    scheduledPlanId: null,
    endingSoonMailedFor: null,
    createdAt: now,
    updatedAt: now,
  };
  const record: SubscriptionRecord = { ...subscription, plan, user };
  const events = outboxRows(
    [
      memberCreatedEvent(schoolId, user),
      { schoolId, type: "subscription.created", subjectId: subscription.id, data: presentSubscription(record) },
    ],
    now,
  );
  const params = [
    user.id,
    email,
    name,
    stamped,
    schoolId,
    subscription.id,
    plan.id,
    periods.startAt,
    periods.currentPeriodStart,
    periods.currentPeriodEnd,
    periods.endAt,
    periods.nextChargeDate,
    now,
    JSON.stringify(events),
    options.contentVersion.toString(),
    JSON.stringify(NEW_MEMBER_ROLES),
    JSON.stringify(auditRows(options.actor, [subscriptionCreatedAudit(record, true)], now)),
  ];
  const rows = await rawQuery<{ created: number }>(SQL, params, { name: "subscribe-new-member" });
  return rows[0]?.created === 1 ? record : null;
}
