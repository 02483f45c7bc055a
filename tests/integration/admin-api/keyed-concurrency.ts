// Twenty concurrent requests with one Idempotency-Key (issue 11): the scenario shared by the
// in-memory limiter suite (tests/integration/admin-api/idempotency-limits.test.ts, PGlite and
// Postgres) and the Redis limiter suite (tests/redis/idempotency-limits.test.ts).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { resetAdminRateLimiter } from "@/lib/rate-limit";
import { BUDGET_HEADERS } from "@/lib/rate-limit/wire";
import type { AppServer } from "../../helpers/app-server";
import { CREATE, PLANS, freshEmail, gql, type GqlResult } from "./helpers";

/** Rebuilds the process's limiter from these settings (a fresh key prefix: empty windows). */
export async function applyLimits(settings: Record<string, string>): Promise<void> {
  Object.assign(process.env, { RATE_LIMIT_KEY_PREFIX: `test:i11:${randomUUID().slice(0, 8)}`, ...settings });
  resetEnvCache();
  await resetAdminRateLimiter();
}

export async function restoreLimits(names: string[]): Promise<void> {
  for (const name of [...names, "RATE_LIMIT_KEY_PREFIX"]) delete process.env[name];
  resetEnvCache();
  await resetAdminRateLimiter();
}

export const N = 20;

/** N identical createSubscription requests with one Idempotency-Key, all sent at once. */
export async function sendConcurrently(app: AppServer, key: string, email = freshEmail("concurrent")) {
  const vars = { input: { email, name: "Concurrent", planId: PLANS.monthly } };
  const responses = await Promise.all(Array.from({ length: N }, () => gql(app, CREATE, vars, { headers: { "idempotency-key": key } })));
  return { email, responses };
}

const codeOf = (r: GqlResult) => r.body?.errors?.[0]?.extensions?.code as string | undefined;

/**
 * Never a 500 (the unique violation on the key row used to be one); every response reached the
 * limiter (budget headers); exactly one execution; every other 200 is a replay of it; a 409 says
 * when to retry; 429s are the limiter's.
 */
export async function expectOneExecution(email: string, responses: GqlResult[]): Promise<void> {
  for (const r of responses) {
    expect([200, 409, 429], JSON.stringify(r.body)).toContain(r.status);
    for (const h of BUDGET_HEADERS) expect(r.headers.get(h), h).not.toBeNull();
  }
  const ok = responses.filter((r) => r.status === 200);
  const executed = ok.filter((r) => r.headers.get("idempotent-replayed") === null);
  expect(executed).toHaveLength(1);
  expect(executed[0]!.body.data.createSubscription.errors).toEqual([]);
  for (const r of ok) expect(r.body.data).toEqual(executed[0]!.body.data);
  for (const r of responses.filter((x) => x.status === 409)) {
    expect(codeOf(r)).toBe("IDEMPOTENCY_KEY_IN_USE");
    expect(r.headers.get("retry-after")).toBe("1");
  }
  for (const r of responses.filter((x) => x.status === 429)) {
    expect(["RATE_LIMITED", "RATE_LIMIT_EXCEEDED"]).toContain(codeOf(r));
    expect(r.headers.get("retry-after")).not.toBeNull();
  }
  expect(await db().subscription.count({ where: { user: { email } } })).toBe(1);
}

/** With the window full, the limiter refuses them all before any key is claimed: nothing runs. */
export async function expectAllRefusedUnclaimed(key: string, email: string, responses: GqlResult[]): Promise<void> {
  for (const r of responses) {
    expect(r.status, JSON.stringify(r.body)).toBe(429);
    expect(codeOf(r)).toBe("RATE_LIMIT_EXCEEDED");
    expect(r.headers.get("retry-after")).not.toBeNull();
  }
  expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
  expect(await db().user.count({ where: { email } })).toBe(0);
}

/** Fills the key's mutation window with `n` cheap mutations (a payload failure, nothing written). */
export async function fillMutationWindow(app: AppServer, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await gql(app, CREATE, { input: { email: freshEmail("filler"), name: "F", planId: "5c400000-0000-4000-8000-0003000000ff" } });
    expect(r.status).toBe(200);
  }
}
