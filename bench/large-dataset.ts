// The large-school dataset: what a school that has grown for years leaves in the tables, written
// into an existing (migrated, demo-seeded) Postgres database by set-based INSERT … SELECT
// generate_series statements, so the full shape takes seconds, not minutes. The bench runs every
// workload on it as well as on the demo seed (docs/benchmarks.md, "Flat cost as data grows"), and
// tests/pg/hot-plans.test.ts checks on a scaled-down copy that no hot statement's plan scans a large
// table.
//
// Scale 1 is the shape measured in docs/benchmarks.md: the target school gets 200,000 members,
// 400,000 subscriptions (300 of them actually due for the lazy settle), 1,000,000 payments, 500
// courses, 2,000,000 OAuth token rows (one grant per member, half access and half refresh tokens)
// and 500,000 webhook deliveries; beside it 1,000 other schools with a plan, a course and 9
// members each. Every count scales linearly (at least 1).
//
// Ids are derived (md5 of a name and a number), so rows of one statement reference rows of another
// without a join, and a second run with the same prefix collides instead of doubling the data.

/** Row counts at scale 1. */
export const LARGE_SHAPE = {
  members: 200_000,
  subscriptions: 400_000,
  dueSubscriptions: 300,
  payments: 1_000_000,
  courses: 500,
  tokenRows: 2_000_000,
  webhookDeliveries: 500_000,
  otherSchools: 1_000,
  membersPerOtherSchool: 9,
} as const;

export type LargeShape = { [K in keyof typeof LARGE_SHAPE]: number };

/** The counts at `scale` (each at least 1, members at least as many as a round of the school's plans needs). */
export function shapeAt(scale: number): LargeShape {
  if (!(scale > 0)) throw new Error(`scale must be positive, got ${scale}`);
  const s = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    members: s(LARGE_SHAPE.members),
    subscriptions: s(LARGE_SHAPE.subscriptions),
    dueSubscriptions: s(LARGE_SHAPE.dueSubscriptions),
    payments: s(LARGE_SHAPE.payments),
    courses: s(LARGE_SHAPE.courses),
    tokenRows: s(LARGE_SHAPE.tokenRows),
    webhookDeliveries: s(LARGE_SHAPE.webhookDeliveries),
    otherSchools: s(LARGE_SHAPE.otherSchools),
    membersPerOtherSchool: LARGE_SHAPE.membersPerOtherSchool,
  };
}

/** Runs one SQL statement, every one on the same connection (a pg.Client's `query`). */
export type Exec = (sql: string) => Promise<unknown>;

export interface LargeDatasetOptions {
  /** The school that grows (the bench's demo school); it must have at least two membership plans. */
  schoolId: string;
  scale: number;
  /** The OAuth client the generated grants belong to (a registered client_id). */
  clientId: string;
}

const uuid = (prefix: string, n: string) => `md5('${prefix}-' || ${n})::uuid`;

/**
 * The statements, in order. Numbers are interpolated only from `shapeAt` (integers) and ids only
 * after a UUID check, so the text holds nothing a caller could inject.
 */
export function largeDatasetStatements(options: LargeDatasetOptions): string[] {
  const { schoolId, clientId } = options;
  if (!/^[0-9a-f-]{36}$/i.test(schoolId)) throw new Error("schoolId must be a UUID");
  if (!/^[\w.:/-]+$/.test(clientId)) throw new Error("clientId must be a plain client_id");
  const n = shapeAt(options.scale);
  const school = `'${schoolId}'::uuid`;
  const user = (i: string) => uuid("large-user", i);
  const sub = (k: string) => uuid("large-sub", k);
  // Subscription k belongs to member k % members, in round k / members, on plan (member + round) %
  // plans: no member holds two subscriptions of one plan (the live-subscription unique index).
  const plans = `(SELECT id, "planType", (row_number() OVER (ORDER BY id) - 1)::int AS n, count(*) OVER ()::int AS total
                    FROM "MembershipPlan" WHERE "schoolId" = ${school})`;
  const due = n.dueSubscriptions;
  return [
    `DO $$ BEGIN
       IF (SELECT count(*) FROM "MembershipPlan" WHERE "schoolId" = ${school}) < ${Math.ceil(n.subscriptions / n.members)} THEN
         RAISE EXCEPTION 'the school needs at least % membership plans', ${Math.ceil(n.subscriptions / n.members)};
       END IF;
       IF NOT EXISTS (SELECT 1 FROM "MembershipPlan" WHERE "schoolId" = ${school} AND "planType" IN ('fixed_date', 'specific_length')) THEN
         RAISE EXCEPTION 'the school needs a fixed_date or specific_length plan for its due subscriptions';
       END IF;
     END $$`,
    // Every reference is derived consistently, so foreign-key triggers only cost time (they are
    // most of it): skipped where the role may (a superuser, as on the bench's scratch databases).
    // Session-wide, hence `exec` must be one connection. Content triggers are skipped too: the
    // content version is bumped by hand at the end.
    `DO $$ BEGIN
       SET session_replication_role = replica;
     EXCEPTION WHEN insufficient_privilege THEN
       RAISE NOTICE 'foreign keys checked row by row: slower';
     END $$`,
    // Members, and the extra members whose one subscription is due.
    `INSERT INTO "User" ("id", "email", "name", "emailVerified", "createdAt", "updatedAt")
     SELECT ${user("i")}, 'large-member-' || i || '@large.bench.test', 'Large Member ' || i, true,
            now() - (i || ' minutes')::interval, now()
       FROM generate_series(0, ${n.members + due - 1}) AS i`,
    `INSERT INTO "SchoolMembership" ("id", "schoolId", "userId", "roles", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), ${school}, ${user("i")}, ARRAY['student'], now(), now()
       FROM generate_series(0, ${n.members + due - 1}) AS i`,
    // Subscriptions, oldest first by k. Six in ten are history (canceled, or expired on a
    // fixed-length plan) with an end in the past; the live ones on fixed-length plans end in the
    // future; one live subscription in ten has a cancellation scheduled for the future.
    `INSERT INTO "Subscription" ("id", "schoolId", "userId", "planId", "state", "startAt", "currentPeriodStart",
                                 "currentPeriodEnd", "endAt", "nextChargeDate", "cancelAt", "canceledAt", "createdAt", "updatedAt")
     SELECT ${sub("k")}, ${school}, ${user(`(k % ${n.members})`)}, p.id,
            (CASE WHEN k % 10 < 6 THEN (CASE WHEN fixed THEN 'expired' ELSE 'canceled' END) WHEN k % 10 = 6 THEN 'trialing' ELSE 'active' END)::"SubscriptionState",
            created, created, created + interval '30 days',
            CASE WHEN k % 10 < 6 THEN created + interval '30 days' WHEN fixed THEN now() + interval '1 day' * (1 + k % 365) END,
            CASE WHEN k % 10 >= 6 AND NOT fixed THEN now() + interval '1 day' * (1 + k % 30) END,
            CASE WHEN k % 10 = 9 THEN now() + interval '1 day' * (1 + k % 30) END,
            CASE WHEN k % 10 < 6 AND NOT fixed THEN created + interval '30 days' END,
            created, created
       FROM (SELECT k, now() - interval '1 year' - (${n.subscriptions} - k) * interval '1 minute' AS created
               FROM generate_series(0, ${n.subscriptions - 1}) AS k) AS g
       JOIN ${plans} AS p ON p.n = ((k % ${n.members}) + k / ${n.members}) % p.total
      CROSS JOIN LATERAL (SELECT p."planType" IN ('fixed_date', 'specific_length') AS fixed) AS f`,
    // The due ones: live, on a fixed-length plan, ended a day ago (the settle pass expires them).
    `INSERT INTO "Subscription" ("id", "schoolId", "userId", "planId", "state", "startAt", "endAt", "createdAt", "updatedAt")
     SELECT ${sub(`(${n.subscriptions} + d)`)}, ${school}, ${user(`(${n.members} + d)`)},
            (SELECT id FROM "MembershipPlan" WHERE "schoolId" = ${school} AND "planType" IN ('fixed_date', 'specific_length') ORDER BY id LIMIT 1),
            'active', now() - interval '31 days', now() - interval '1 day', now() - interval '31 days', now() - interval '31 days'
       FROM generate_series(0, ${due - 1}) AS d`,
    `INSERT INTO "Payment" ("id", "schoolId", "subscriptionId", "amount", "currency", "state", "paidAt", "createdAt")
     SELECT gen_random_uuid(), ${school}, ${sub(`(j % ${n.subscriptions})`)}, 19.00, 'USD',
            (CASE WHEN j % 20 = 0 THEN 'failed' ELSE 'succeeded' END)::"PaymentState",
            now() - (${n.payments} - j) * interval '30 seconds', now() - (${n.payments} - j) * interval '30 seconds'
       FROM generate_series(0, ${n.payments - 1}) AS j`,
    `INSERT INTO "Course" ("id", "schoolId", "slug", "title", "summary", "status", "position", "publishedAt", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), ${school}, 'large-course-' || c, 'Large Course ' || c, 'A course of the large dataset.',
            'published', 1000 + c, now() - interval '1 year', now(), now()
       FROM generate_series(0, ${n.courses - 1}) AS c`,
    // One grant per member, then half the token rows access tokens, half refresh tokens. The issuer
    // '' matches no origin: they are rows to scan past, never redeemable.
    `INSERT INTO "OAuthGrant" ("id", "clientId", "userId", "schoolId", "scope", "issuer", "createdAt")
     SELECT ${uuid("large-grant", "i")}, '${clientId}', ${user("i")}, ${school}, 'offline_access courses:read', '', now() - interval '1 day'
       FROM generate_series(0, ${n.members - 1}) AS i`,
    `INSERT INTO "OAuthAccessToken" ("id", "tokenHash", "grantId", "clientId", "scope", "expiresAt", "createdAt")
     SELECT gen_random_uuid(), 'large-access-' || md5('a' || t), ${uuid("large-grant", `(t % ${n.members})`)}, '${clientId}',
            'courses:read', now() + (CASE WHEN t % 2 = 0 THEN interval '1 hour' ELSE interval '-1 day' END), now() - interval '1 hour'
       FROM generate_series(0, ${Math.ceil(n.tokenRows / 2) - 1}) AS t`,
    `INSERT INTO "OAuthRefreshToken" ("id", "tokenHash", "grantId", "clientId", "scope", "expiresAt", "rotatedAt", "createdAt")
     SELECT gen_random_uuid(), 'large-refresh-' || md5('r' || t), ${uuid("large-grant", `(t % ${n.members})`)}, '${clientId}',
            'offline_access courses:read', now() + interval '30 days', CASE WHEN t >= ${n.members} THEN now() - interval '1 hour' END,
            now() - interval '1 hour'
       FROM generate_series(0, ${Math.floor(n.tokenRows / 2) - 1}) AS t`,
    // Delivered history of one (disabled, so nothing new is sent) endpoint.
    `INSERT INTO "WebhookEndpoint" ("id", "schoolId", "url", "description", "events", "secretCiphertext", "disabledAt", "disabledReason", "createdAt", "updatedAt")
     VALUES (${uuid("large-endpoint", "'0'")}, ${school}, 'https://hooks.large.bench.test/in', 'large dataset history', ARRAY['*'],
             'large-dataset-not-a-secret', now(), 'large bench dataset', now() - interval '2 years', now())`,
    `INSERT INTO "WebhookEvent" ("id", "schoolId", "type", "subjectId", "payload", "createdAt")
     SELECT ${uuid("large-event", "w")}, ${school}, 'subscription.created', ${sub(`(w % ${n.subscriptions})`)}, '{}',
            now() - (${n.webhookDeliveries} - w) * interval '1 minute'
       FROM generate_series(0, ${n.webhookDeliveries - 1}) AS w`,
    `INSERT INTO "WebhookDelivery" ("id", "schoolId", "eventId", "endpointId", "status", "attemptCount", "lastStatusCode", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), ${school}, ${uuid("large-event", "w")}, ${uuid("large-endpoint", "'0'")}, 'succeeded', 1, 200,
            now() - (${n.webhookDeliveries} - w) * interval '1 minute', now() - (${n.webhookDeliveries} - w) * interval '1 minute'
       FROM generate_series(0, ${n.webhookDeliveries - 1}) AS w`,
    // The other schools: each a plan, a course and a few members with one subscription each.
    `INSERT INTO "School" ("id", "subdomain", "name", "createdAt", "updatedAt")
     SELECT ${uuid("large-school", "o")}, 'large-other-' || o, 'Other School ' || o, now(), now()
       FROM generate_series(0, ${n.otherSchools - 1}) AS o`,
    `INSERT INTO "MembershipPlan" ("id", "schoolId", "slug", "name", "planType", "interval", "price", "currency", "createdAt", "updatedAt")
     SELECT ${uuid("large-plan", "o")}, ${uuid("large-school", "o")}, 'monthly', 'Monthly', 'recurring', 'month', 9.00, 'USD', now(), now()
       FROM generate_series(0, ${n.otherSchools - 1}) AS o`,
    `INSERT INTO "Course" ("id", "schoolId", "slug", "title", "status", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), ${uuid("large-school", "o")}, 'welcome', 'Welcome', 'published', now(), now()
       FROM generate_series(0, ${n.otherSchools - 1}) AS o`,
    `INSERT INTO "User" ("id", "email", "name", "createdAt", "updatedAt")
     SELECT ${uuid("large-other-user", "m")}, 'large-other-' || m || '@large.bench.test', 'Other Member ' || m, now(), now()
       FROM generate_series(0, ${n.otherSchools * n.membersPerOtherSchool - 1}) AS m`,
    `INSERT INTO "SchoolMembership" ("id", "schoolId", "userId", "roles", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), ${uuid("large-school", `(m / ${n.membersPerOtherSchool})`)}, ${uuid("large-other-user", "m")}, ARRAY['student'], now(), now()
       FROM generate_series(0, ${n.otherSchools * n.membersPerOtherSchool - 1}) AS m`,
    `INSERT INTO "Subscription" ("id", "schoolId", "userId", "planId", "state", "startAt", "nextChargeDate", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), ${uuid("large-school", `(m / ${n.membersPerOtherSchool})`)}, ${uuid("large-other-user", "m")},
            ${uuid("large-plan", `(m / ${n.membersPerOtherSchool})`)}, 'active', now() - interval '10 days', now() + interval '20 days',
            now() - interval '10 days', now()
       FROM generate_series(0, ${n.otherSchools * n.membersPerOtherSchool - 1}) AS m`,
    `RESET session_replication_role`,
    `UPDATE "ContentVersion" SET "version" = "version" + 1, "changedAt" = CURRENT_TIMESTAMP`,
    // Fresh statistics: the planner must see the large tables as large right away (autovacuum's
    // analyze would come later, and a plan chosen on empty-table estimates proves nothing).
    `ANALYZE`,
  ];
}

/** Writes the dataset; returns the counts written. */
export async function generateLargeDataset(exec: Exec, options: LargeDatasetOptions): Promise<LargeShape> {
  for (const sql of largeDatasetStatements(options)) await exec(sql);
  return shapeAt(options.scale);
}
