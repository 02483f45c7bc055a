// The database stopped in the middle of a renewal run (issue 26, "Exactly once"), on a Postgres of
// this test's own (initdb in a temporary directory, its own port; tests/helpers/pg-cluster.ts):
// `pg_ctl -m immediate` while the run (the cron route, over HTTP) is (1) charging, (2) inside the
// transaction that records the outcomes, (3) inside the transaction that opens the payments; then
// started again. Each time: the cron route answers 503 in its own format, no subscription is left
// half-advanced, and the next run after the lease reconciles every payment whose outcome was unknown
// from the provider (never a second charge, no retry attempt), charges what was never sent, and
// renews every subscription once: one succeeded payment per (subscription, period), none missed.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { closeDbHandle, createDbHandle, db, setDbHandle, type DbHandle } from "@/lib/db/client";
import { createPgDriver } from "@/lib/db/driver";
import { migrate } from "@/lib/db/migrator";
import { resetEnvCache } from "@/lib/env";
import { clearTestProviderFaults, simulateDelayAfterCharge } from "@/lib/billing/test-provider";
import { CHARGE_LEASE_MS } from "@/lib/billing/schedule";
import { createSubscription } from "@/lib/membership/create-subscription";
import { seedDemo } from "@/lib/startup/seed/seed";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";
import { freePort } from "../helpers/outage";
import { createPgCluster, postgresBinDir, type PgCluster } from "../helpers/pg-cluster";
import { DEMO_IDS, PLANS, TEST_NOW, freshEmail } from "../integration/admin-api/helpers";

const binDir = postgresBinDir();
if (!binDir) console.warn("tests/pg/renewal-database-outage.test.ts skipped: initdb not found (install the PostgreSQL server package or set PG_BIN_DIR)");

const CRON_SECRET = "renewal-outage-test-cron-secret";
const COUNT = 20;
// 2026-11-21 + 1, 2, 3 months: the periods the three outages cut.
const DEC_21 = new Date("2026-12-21T12:00:00Z");
const JAN_21 = new Date("2027-01-21T12:00:00Z");
const FEB_21 = new Date("2027-02-21T12:00:00Z");
const AFTER_LEASE = CHARGE_LEASE_MS + 60_000;

describe.skipIf(!binDir)("renewals with the database stopped mid-run (own Postgres)", () => {
  let cluster: PgCluster;
  let handle: DbHandle;
  let app: AppServer;
  const ids: string[] = [];

  /** A connection of the test's own (the app's pool is what the outage cuts). */
  async function admin(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: cluster.url("app") });
    // The outage ends this connection too: an 'error' event without a listener would crash the run.
    c.on("error", () => {});
    await c.connect();
    return c;
  }

  const cron = () => app.fetch("/api/cron/subscriptions", { headers: { authorization: `Bearer ${CRON_SECRET}` } });

  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Subscriptions whose period and payments disagree: a paid period not entered, or a period entered unpaid. */
  async function halfAdvanced(): Promise<string[]> {
    const rows = await db().$queryRaw<{ id: string }[]>`
      SELECT s."id"::text AS "id" FROM "Subscription" s
       WHERE s."id" = ANY(${ids}::text[]::uuid[])
         AND (s."state" <> 'active'
              OR s."nextChargeDate" IS DISTINCT FROM s."currentPeriodEnd"
              OR NOT EXISTS (SELECT 1 FROM "Payment" p WHERE p."subscriptionId" = s."id" AND p."state" = 'succeeded' AND p."periodStart" = s."currentPeriodStart")
              OR EXISTS (SELECT 1 FROM "Payment" p WHERE p."subscriptionId" = s."id" AND p."state" = 'succeeded' AND p."periodStart" >= s."currentPeriodEnd"))`;
    return rows.map((r) => r.id);
  }

  /** After a completed run: every subscription renewed into `periodStart`'s period, each period paid once and charged once. */
  async function expectExactlyOnce(periods: number, periodStart: Date) {
    expect(await halfAdvanced()).toEqual([]);
    const subs = await db().subscription.findMany({ where: { id: { in: ids } } });
    for (const s of subs) expect(s.currentPeriodStart, s.id).toEqual(periodStart);
    const paid = await db().payment.groupBy({ by: ["subscriptionId", "periodStart"], where: { subscriptionId: { in: ids }, state: "succeeded" }, _count: { _all: true } });
    expect(paid).toHaveLength(COUNT * periods);
    for (const row of paid) expect(row._count._all, `${row.subscriptionId} ${row.periodStart?.toISOString()}`).toBe(1);
    // Nothing else: no failed attempt, nothing left pending, no retry (attempt 2).
    expect(await db().payment.count({ where: { subscriptionId: { in: ids }, state: { not: "succeeded" } } })).toBe(0);
    expect(await db().payment.count({ where: { subscriptionId: { in: ids }, attempt: { gt: 1 } } })).toBe(0);
    // The provider charged each period once: one ledger row per payment, each the payment's own.
    expect(await db().testProviderCharge.count()).toBe(COUNT * periods);
    const ledger = new Map((await db().testProviderCharge.findMany()).map((c) => [c.idempotencyKey, c.id]));
    for (const p of await db().payment.findMany({ where: { subscriptionId: { in: ids } } })) expect(p.providerPaymentId).toBe(ledger.get(p.idempotencyKey!));
  }

  /** Starts a run, stops the database once `cut` says so, and returns the run's answer; the database is started again. */
  async function runCutBy(cut: () => Promise<void>): Promise<Response> {
    const answer = cron();
    await cut();
    cluster.stop("immediate");
    const res = await answer;
    cluster.start();
    return res;
  }

  async function expect503(res: Response) {
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ error: "temporarily_unavailable" });
  }

  beforeAll(async () => {
    cluster = createPgCluster({ port: await freePort(5480, 5489), binDir: binDir! });
    const c = new pg.Client({ connectionString: cluster.url() });
    await c.connect();
    await c.query("CREATE DATABASE app");
    await c.end();
    handle = createDbHandle(createPgDriver(cluster.url("app"), { max: 10 }));
    await migrate({ driver: handle.driver });
    await seedDemo({ prisma: handle.prisma });
    setDbHandle(handle);
    process.env.CRON_SECRET = CRON_SECRET;
    resetEnvCache();
    clearSchoolCache();
    setNow(TEST_NOW);
    for (let i = 0; i < COUNT; i++) {
      const r = await createSubscription({
        actor: TEST_ACTOR,
        schoolId: DEMO_IDS.school,
        input: { email: freshEmail("outage"), name: "Outage", planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: "4242424242424242" },
        now: TEST_NOW,
      });
      expect(r.record?.state).toBe("active");
      ids.push(r.record!.id);
    }
    app = await startAppServer({ host: "demo.localhost" });
  }, 120_000);

  afterAll(async () => {
    clearTestProviderFaults();
    setNow(null);
    await app?.close();
    delete process.env.CRON_SECRET;
    resetEnvCache();
    setDbHandle(undefined);
    if (handle) await closeDbHandle(handle).catch(() => {});
    cluster?.destroy();
  }, 60_000);

  it("stopped while the provider is charging: 503; after the lease, the charged payments are found at the provider and the rest charged once", async () => {
    await expectExactlyOnce(1, TEST_NOW);
    setNow(DEC_21);
    // Each charge is held a moment after the provider made it, so the stop lands between charges.
    simulateDelayAfterCharge(100);
    const observer = await admin();
    const res = await runCutBy(() =>
      until("a few charges of the run", async () => Number((await observer.query(`SELECT count(*) AS n FROM "TestProviderCharge"`)).rows[0].n) >= COUNT + 5),
    );
    await observer.end().catch(() => {});
    clearTestProviderFaults();
    await expect503(res);

    // Cut mid-run: the whole batch's payments are pending (outcome unknown), some charged at the
    // provider, nothing recorded as paid and no subscription moved.
    const pending = await db().payment.findMany({ where: { subscriptionId: { in: ids }, state: "pending" } });
    expect(pending).toHaveLength(COUNT);
    const chargedBefore = new Map((await db().testProviderCharge.findMany({ where: { idempotencyKey: { in: pending.map((p) => p.idempotencyKey!) } } })).map((c) => [c.idempotencyKey, c.id]));
    expect(chargedBefore.size).toBeGreaterThanOrEqual(5);
    expect(chargedBefore.size).toBeLessThan(COUNT);
    expect(await halfAdvanced()).toEqual([]);
    for (const s of await db().subscription.findMany({ where: { id: { in: ids } } })) expect(s.currentPeriodEnd).toEqual(DEC_21);

    // Within the lease nothing is taken again; after it, one run settles everything.
    setNow(new Date(DEC_21.getTime() + 60_000));
    expect((await cron()).status).toBe(200);
    expect(await db().payment.count({ where: { subscriptionId: { in: ids }, state: "pending" } })).toBe(COUNT);
    setNow(new Date(DEC_21.getTime() + AFTER_LEASE));
    const after = await cron();
    expect(after.status).toBe(200);
    expect(((await after.json()) as { renewals: { outcomes: Record<string, number> } }).renewals.outcomes).toMatchObject({ succeeded: COUNT, failed: 0, unknown: 0 });
    await expectExactlyOnce(2, DEC_21);
    // Reconciled from the provider before any retry: the charges made before the stop are the ones recorded.
    for (const p of pending) {
      const settled = await db().payment.findUniqueOrThrow({ where: { id: p.id } });
      expect(settled.state).toBe("succeeded");
      if (chargedBefore.has(p.idempotencyKey!)) expect(settled.providerPaymentId).toBe(chargedBefore.get(p.idempotencyKey!));
    }
  }, 120_000);

  it("stopped inside the transaction recording the outcomes: it rolls back whole; the next run records them from the provider", async () => {
    setNow(JAN_21);
    const locker = await admin();
    // The recording transaction writes payments and subscriptions, then its audit rows: held there.
    await locker.query(`BEGIN; LOCK TABLE "AuditEvent" IN EXCLUSIVE MODE`);
    const observer = await admin();
    const res = await runCutBy(() =>
      until("the recording transaction waiting on its audit rows", async () => {
        const r = await observer.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%AuditEvent%'`);
        return Number(r.rows[0].n) > 0;
      }),
    );
    await Promise.all([locker.end().catch(() => {}), observer.end().catch(() => {})]);
    await expect503(res);

    // Every charge was made; none of it is recorded (the transaction never committed): all pending, nothing moved.
    expect(await db().testProviderCharge.count()).toBe(COUNT * 3);
    expect(await db().payment.count({ where: { subscriptionId: { in: ids }, state: "pending" } })).toBe(COUNT);
    expect(await halfAdvanced()).toEqual([]);
    for (const s of await db().subscription.findMany({ where: { id: { in: ids } } })) expect(s.currentPeriodEnd).toEqual(JAN_21);

    setNow(new Date(JAN_21.getTime() + AFTER_LEASE));
    expect((await cron()).status).toBe(200);
    await expectExactlyOnce(3, JAN_21);
  }, 120_000);

  it("stopped inside the transaction opening the payments: nothing is charged; the next run after the lease charges each period once", async () => {
    setNow(FEB_21);
    const locker = await admin();
    // The claim commits its leases; the opening transaction's INSERT of the payments is held.
    await locker.query(`BEGIN; LOCK TABLE "Payment" IN EXCLUSIVE MODE`);
    const observer = await admin();
    const res = await runCutBy(() =>
      until("the opening transaction waiting on its payments", async () => {
        const r = await observer.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO%"Payment"%'`);
        return Number(r.rows[0].n) > 0;
      }),
    );
    await Promise.all([locker.end().catch(() => {}), observer.end().catch(() => {})]);
    await expect503(res);

    expect(await db().payment.count({ where: { subscriptionId: { in: ids }, periodStart: FEB_21 } })).toBe(0);
    expect(await db().testProviderCharge.count()).toBe(COUNT * 3);
    expect(await halfAdvanced()).toEqual([]);
    // Claimed before the stop: the lease holds them until it passes, then they renew once.
    setNow(new Date(FEB_21.getTime() + 60_000));
    expect((await cron()).status).toBe(200);
    expect(await db().payment.count({ where: { subscriptionId: { in: ids }, periodStart: FEB_21 } })).toBe(0);
    setNow(new Date(FEB_21.getTime() + AFTER_LEASE));
    expect((await cron()).status).toBe(200);
    await expectExactlyOnce(4, FEB_21);
  }, 120_000);
});
