// Fairness between credentials on the database (lib/db/fair-gate.ts) and the operation time limit,
// through HTTP on the real route. No wall-clock thresholds: the gate is held and released by the
// test, and "answered while the abuser still runs" is checked by order, not by milliseconds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dbHandle } from "@/lib/db/client";
import type { Release } from "@/lib/db/fair-gate";
import { resetEnvCache } from "@/lib/env";
import { resetAdminRateLimiter } from "@/lib/rate-limit";
import { BUDGET_HEADERS } from "@/lib/rate-limit/wire";
import { addSubscriptionRows } from "./bulk-rows";
import { ACME_API_KEY, adminAppForSuite, DEMO_IDS, gql, type GqlResult } from "./helpers";

const app = adminAppForSuite();
const ABUSER = `api_key:${DEMO_IDS.apiKeys.full}`;
const SHARED = "";
const HEAVY = "{ subscriptions(first: 100) { nodes { id plan { name } user { email } payments { id } } } }";
const SMALL = "{ membershipPlans { id } }";
const PAGE = "subscriptions(first: 100) { nodes { id plan { name } user { email } payments { id } } }";
const ABUSIVE = `{ a: ${PAGE} b: ${PAGE} c: ${PAGE} }`;

const gate = () => dbHandle().gate;

/** Waits (without a clock) until the gate's state satisfies `ok`. */
async function until(ok: (s: ReturnType<ReturnType<typeof gate>["snapshot"]>) => boolean): Promise<void> {
  for (let i = 0; i < 10_000; i++) {
    if (ok(gate().snapshot())) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`gate never reached the state: ${JSON.stringify(gate().snapshot())}`);
}

/** Takes every connection (in the shared lane, which has no cap) until released. */
async function holdAll(): Promise<() => void> {
  // (Used once the requests are past their shared-lane work: the key lookup also needs a connection.)
  const releases: Release[] = await Promise.all(Array.from({ length: gate().permits }, () => gate().acquire(SHARED)));
  return () => releases.forEach((r) => r());
}

function tracked<T>(promise: Promise<T>) {
  const t = { done: false, promise };
  void promise.then(() => (t.done = true), () => (t.done = true));
  return t;
}

async function health() {
  const res = await app.fetch("/api/health");
  return { status: res.status, body: (await res.json()) as { status: string } };
}

beforeAll(() => addSubscriptionRows(120));

describe("one credential cannot monopolise the database", () => {
  it("while one key holds its whole share of connections, another key's query and /api/health are answered", async () => {
    const g = gate();
    // With one connection (PGlite) the share is the whole connection: fairness there is the turn
    // order, tested below.
    if (g.share >= g.permits) return;
    const held = await Promise.all(Array.from({ length: g.share }, () => g.acquire(ABUSER)));
    const abuser = Array.from({ length: 3 }, () => tracked(gql(app, HEAVY)));
    await until((s) => (s.waiting[ABUSER] ?? 0) >= 1);

    const victim = await gql(app, SMALL, {}, { key: ACME_API_KEY });
    expect(victim.status).toBe(200);
    expect(victim.body.data.membershipPlans.length).toBeGreaterThan(0);
    expect((await health()).body.status).toBe("ok");
    expect(abuser.every((a) => !a.done)).toBe(true);
    expect(g.snapshot().held[ABUSER]).toBe(g.share);

    held.forEach((r) => r());
    for (const a of abuser) expect((await a.promise).status).toBe(200);
  });

  it("a key with its whole in-flight budget running gets turns like any other: the victim is answered before the abuser's work drains", async () => {
    const order: string[] = [];
    let victim: Promise<GqlResult> | undefined;
    let probe: Promise<{ status: number }> | undefined;
    // The moment the abuser's first statement runs (its operations are executing and more of their
    // statements are on the way), the victim and health ask.
    const stop = dbHandle().onStatement((s) => {
      if (s.lane !== ABUSER || victim) return;
      victim = gql(app, SMALL, {}, { key: ACME_API_KEY }).then((r) => (order.push("victim"), r));
      probe = health().then((r) => (order.push("health"), r));
    });
    try {
      // Ten operations (the key's in-flight budget), each three pages of 100 with plan, user and payments.
      const abuser = await Promise.all(Array.from({ length: 10 }, () => gql(app, ABUSIVE)));
      order.push("abuser");
      expect(abuser.map((r) => r.status)).toEqual(Array(10).fill(200));
      const [v, h] = await Promise.all([victim!, probe!]);
      expect(v.status).toBe(200);
      expect(v.body.data.membershipPlans.length).toBeGreaterThan(0);
      expect(h.status).toBe(200);
      // Both were answered before the last of the abuser's operations finished.
      expect(order.indexOf("victim")).toBeLessThan(order.indexOf("abuser"));
      expect(order.indexOf("health")).toBeLessThan(order.indexOf("abuser"));
    } finally {
      stop();
    }
  });
});

describe("an operation past its time limit", () => {
  const ENV = { RATE_LIMIT_OPERATION_TIMEOUT_MS: "1000" };
  beforeAll(async () => {
    Object.assign(process.env, ENV);
    resetEnvCache();
    await resetAdminRateLimiter();
  });
  afterAll(async () => {
    for (const k of Object.keys(ENV)) delete process.env[k];
    resetEnvCache();
    await resetAdminRateLimiter();
  });

  it("is answered 504 with budget headers, its slot released, and its queued database work dropped at once", async () => {
    // When the operation's first statement runs, take every connection: its next statements wait
    // in the gate until the time limit cuts it.
    let hold: Promise<() => void> | undefined;
    const after: string[] = [];
    let answered = false;
    const stop = dbHandle().onStatement((s) => {
      if (s.lane !== ABUSER) return;
      if (answered) after.push(s.sql);
      hold ??= holdAll();
    });
    try {
      const r = await gql(app, HEAVY);
      answered = true;
      expect(r.status).toBe(504);
      expect(r.body.data ?? null).toBeNull();
      expect(r.body.errors).toHaveLength(1);
      expect(r.body.errors[0].extensions).toMatchObject({ code: "OPERATION_TIMEOUT", timeout_ms: 1000 });
      expect(r.body.errors[0].message).toMatch(/timed out after 1000 ms and was stopped/);
      for (const h of BUDGET_HEADERS) expect(r.headers.get(h)).not.toBeNull();
      // The in-flight slot was released before the answer.
      expect(r.body.extensions.rate_limit.active_operations).toMatchObject({ limit: 10, active: 0, remaining: 10 });
      expect(r.headers.get("RateLimit")).toBe('"active-operations";r=10');
      // Its waiting statement left the gate's queue; it holds no connection.
      const snap = gate().snapshot();
      expect(snap.waiting[ABUSER]).toBeUndefined();
      expect(snap.held[ABUSER]).toBeUndefined();

      (await hold!)();
      // Nothing more of it runs once the connections are free again: the next operation of the same
      // key is its only work.
      const next = await gql(app, SMALL);
      expect(next.status).toBe(200);
      expect(next.body.extensions.rate_limit.active_operations.active).toBe(0);
      expect(after.filter((sql) => !sql.includes('"MembershipPlan"'))).toEqual([]);
    } finally {
      stop();
    }
  });
});
