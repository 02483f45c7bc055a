// Several renewal workers on one Postgres database: claims use FOR UPDATE SKIP LOCKED and a lease,
// payments a unique key per period, charges an idempotency key derived from it. Whatever runs at
// once (runners in one process, runs in two OS processes), every due period is charged exactly once.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setNow } from "@/lib/clock";
import { db, setDbHandle } from "@/lib/db/client";
import { seedDemo } from "@/lib/startup/seed/seed";
import { renewDueSubscriptions, type RenewalRunResult } from "@/lib/billing/renew-due";
import { createSubscription } from "@/lib/membership/create-subscription";
import { createTestDb, type TestDb } from "../helpers/test-db";
import { DEMO_IDS, PLANS, TEST_NOW, freshEmail } from "../integration/admin-api/helpers";
import { TEST_ACTOR } from "../helpers/audit-actor";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const DEC_21 = new Date("2026-12-21T12:00:00Z");
const JAN_21 = new Date("2027-01-21T12:00:00Z");
const FEB_21 = new Date("2027-02-21T12:00:00Z");
const COUNT = 30;

let own: TestDb;
const ids: string[] = [];

beforeAll(async () => {
  // A database of this file's own, whose URL the child processes get.
  own = await createTestDb("pg");
  setDbHandle(own.handle);
  await seedDemo({ prisma: db() });
  setNow(TEST_NOW);
  for (let i = 0; i < COUNT; i++) {
    const r = await createSubscription({ actor: TEST_ACTOR,
      schoolId: DEMO_IDS.school,
      input: { email: freshEmail("worker"), name: "Worker", planId: PLANS.monthly, collectionMethod: "charge_automatically", paymentMethod: "4242424242424242" },
      now: TEST_NOW,
    });
    expect(r.record?.state).toBe("active");
    ids.push(r.record!.id);
  }
}, 120_000);

afterAll(async () => {
  setNow(null);
  setDbHandle(undefined);
  await own?.dispose();
});

async function expectEachPaid(times: number) {
  const succeeded = await db().payment.groupBy({ by: ["subscriptionId"], where: { subscriptionId: { in: ids }, state: "succeeded" }, _count: true });
  expect(succeeded).toHaveLength(COUNT);
  for (const row of succeeded) expect(row._count).toBe(times);
  expect(await db().payment.count({ where: { subscriptionId: { in: ids }, state: { not: "succeeded" } } })).toBe(0);
  expect(await db().testProviderCharge.count()).toBe(COUNT * times);
}

const charged = (results: RenewalRunResult[]) => results.reduce((sum, r) => sum + r.outcomes.succeeded, 0);

describe("renewal workers on Postgres", () => {
  it("three runners in one process charge each period once and share the work", async () => {
    const results = await Promise.all([0, 1, 2].map(() => renewDueSubscriptions({ now: DEC_21, batchSize: 2 })));
    expect(charged(results)).toBe(COUNT);
    expect(results.filter((r) => r.outcomes.succeeded > 0).length).toBeGreaterThan(1);
    await expectEachPaid(2);
  });

  it("two OS processes at once charge each period once", async () => {
    const worker = () =>
      run(path.join(ROOT, "node_modules/.bin/tsx"), ["tests/pg/fixtures/renew-worker.ts", JAN_21.toISOString()], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: own.url!, NODE_ENV: "development" },
      });
    const outputs = await Promise.all([worker(), worker()]);
    const results = outputs.map((o) => JSON.parse(o.stdout.trim().split("\n").at(-1)!) as RenewalRunResult);
    expect(charged(results)).toBe(COUNT);
    await expectEachPaid(3);
  }, 120_000);

  it("a worker SIGKILLed after the provider charged, before recording: the next run reconciles, no second charge", async () => {
    const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["tests/pg/fixtures/renew-worker.ts", FEB_21.toISOString(), "60000"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: own.url!, NODE_ENV: "development" },
      stdio: "ignore",
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    try {
      // Killed as soon as the provider holds its first charge of the period.
      const started = Date.now();
      while ((await db().testProviderCharge.count()) === COUNT * 3 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 50));
      // The batch's two charges are sent at once: one or both may be made by now.
      expect(await db().testProviderCharge.count()).toBeGreaterThanOrEqual(COUNT * 3 + 1);
      expect(await db().testProviderCharge.count()).toBeLessThanOrEqual(COUNT * 3 + 2);
    } finally {
      child.kill("SIGKILL");
    }
    expect(await exited).toBe("SIGKILL");
    // The worker opened its batch (two payments, one per subscription) before charging: charged at
    // the provider or not, both are pending; both are settled by the next run.
    expect(await db().payment.count({ where: { state: "pending" } })).toBe(2);
    // Within the dead worker's lease nobody takes its subscription; after it, one run does everything.
    const after = await renewDueSubscriptions({ now: new Date(FEB_21.getTime() + 6 * 60_000) });
    expect(after.outcomes.succeeded).toBe(COUNT);
    await expectEachPaid(4);
  }, 120_000);
});
