// The benchmark's floors (npm run bench, docs/benchmarks.md): what a hot path's database work costs
// through the raw driver, with no ORM, no GraphQL and no checks, in the same Next.js server as the
// real paths. `floor-write` is createSubscription's writes (insert a user, insert a subscription,
// commit, in one transaction); `floor-read` is one indexed select. A workload's ratio to its floor
// shows how much of its cost is the application's rather than the database's.
//
// They write to the database, so they are off unless BENCH_FLOOR_ROUTES=1 (the bench's own server
// sets it, on a scratch database); otherwise the routes answer 404 as if they did not exist.
import { randomUUID } from "node:crypto";
import { dbHandle } from "../lib/db/client";
import type { Driver } from "../lib/db/driver";
import { DEMO_IDS } from "../lib/startup/seed/demo-data";
import { env } from "../lib/env";

/** The demo seed's rows the floors use (the bench's scratch database always has the demo seed). */
export const FLOOR_SCHOOL_ID = DEMO_IDS.school;
export const FLOOR_PLAN_ID = DEMO_IDS.plans.monthly;
export const FLOOR_COURSE_SLUG = "intro-to-sql";

export function floorRoutesEnabled(): boolean {
  return env().BENCH_FLOOR_ROUTES;
}

const INSERT_USER = `INSERT INTO "User" ("id", "email", "name", "emailVerified", "createdAt", "updatedAt")
  VALUES ($1::uuid, $2, $3, false, $4, $4)`;
const INSERT_SUBSCRIPTION = `INSERT INTO "Subscription"
  ("id", "schoolId", "userId", "planId", "state", "startAt", "currentPeriodStart", "currentPeriodEnd", "nextChargeDate", "createdAt", "updatedAt")
  VALUES ($1::uuid, $2::uuid, $3::uuid, $4::uuid, 'active', $5, $5, $6, $6, $5, $5)`;
const SELECT_COURSE = `SELECT "id", "title" FROM "Course" WHERE "schoolId" = $1::uuid AND "slug" = $2`;

/** Inserts a fresh user and a subscription of theirs in one transaction; returns the subscription id. */
export async function floorWrite(driver: Driver = dbHandle().driver): Promise<string> {
  const now = new Date();
  const end = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
  const userId = randomUUID();
  const subscriptionId = randomUUID();
  const userParams = [userId, `floor-${userId}@bench.schoolhouse.test`, "Floor User", now];
  const subParams = [subscriptionId, FLOOR_SCHOOL_ID, userId, FLOOR_PLAN_ID, now, end];
  if (driver.kind === "pglite") {
    await driver.pglite.transaction(async (tx) => {
      await tx.query(INSERT_USER, userParams);
      await tx.query(INSERT_SUBSCRIPTION, subParams);
    });
    return subscriptionId;
  }
  const client = await driver.pool.connect();
  try {
    await client.query("BEGIN");
    try {
      await client.query(INSERT_USER, userParams);
      await client.query(INSERT_SUBSCRIPTION, subParams);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  } finally {
    client.release();
  }
  return subscriptionId;
}

/** One select by a unique index; returns the course's id, or null when the demo course is missing. */
export async function floorRead(driver: Driver = dbHandle().driver): Promise<string | null> {
  const params = [FLOOR_SCHOOL_ID, FLOOR_COURSE_SLUG];
  const rows =
    driver.kind === "pglite"
      ? (await driver.pglite.query<{ id: string }>(SELECT_COURSE, params)).rows
      : (await driver.pool.query<{ id: string }>(SELECT_COURSE, params)).rows;
  return rows[0]?.id ?? null;
}

const HEADERS = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

/** GET /api/bench/floor-read: one indexed select through the raw driver; 404 unless BENCH_FLOOR_ROUTES=1. */
export async function floorReadResponse(): Promise<Response> {
  if (!floorRoutesEnabled()) return new Response("Not Found\n", { status: 404, headers: HEADERS });
  try {
    const id = await floorRead();
    if (!id) return new Response("the demo course is missing (the floors need the demo seed)\n", { status: 409, headers: HEADERS });
    return new Response(`${id}\n`, { headers: HEADERS });
  } catch (err) {
    console.error("bench floor-read failed", err);
    return new Response("floor-read failed\n", { status: 500, headers: HEADERS });
  }
}

/** POST /api/bench/floor-write: createSubscription's writes through the raw driver, one transaction; 404 unless BENCH_FLOOR_ROUTES=1. */
export async function floorWriteResponse(): Promise<Response> {
  if (!floorRoutesEnabled()) return new Response("Not Found\n", { status: 404, headers: HEADERS });
  try {
    return new Response(`${await floorWrite()}\n`, { headers: HEADERS });
  } catch (err) {
    console.error("bench floor-write failed", err);
    return new Response("floor-write failed\n", { status: 500, headers: HEADERS });
  }
}
