// What a page of subscriptions sends to the database, pinned (docs/benchmarks.md, "Fairness under
// abuse"): the request settles once, however many aliased pages it reads (a named statement too);
// each page is one named raw statement, and plans, users and payments one each for the whole
// request; nothing goes through Prisma's client. Those reads return the wire shapes straight from
// SQL, so they are checked here column by column against the presenters applied to Prisma's
// records (values, types and nulls).
// PGlite, and Postgres with TEST_DATABASE_URL.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { findPlanWires } from "@/lib/membership/find-plans";
import { findUserWires } from "@/lib/membership/find-users";
import { listPaymentWiresOfSubscriptions } from "@/lib/membership/list-payments";
import { listSubscriptionWireRows, listSubscriptions, type SubscriptionFilter } from "@/lib/membership/list-subscriptions";
import { presentPayment, presentPlan, presentSubscriptionRow, presentUser } from "@/lib/membership/presenter";
import { addSubscriptionRows } from "./bulk-rows";
import { planNodes, rowStatementsDuring, statementsOf, type PlanNode } from "../../helpers/statements";
import { adminAppForSuite, DEMO_IDS, PLANS, TEST_NOW, gql } from "./helpers";

const app = adminAppForSuite();
const LANE = `api_key:${DEMO_IDS.apiKeys.full}`;
const SCHOOL = DEMO_IDS.school;

// The fairness scenario's abuser request (bench/fairness.ts, PAGE): four aliased pages of 100.
const PAGE = "subscriptions(first: 100) { nodes { id state isCancellable plan { name price } user { email name } payments { id amount state } } }";
const ABUSE = `{ ${[0, 1, 2, 3].map((i) => `p${i}: ${PAGE}`).join(" ")} }`;

const isKeyCheck = (s: string) => /^SELECT "version"::text AS "version" FROM "CredentialVersion"/.test(s.trim());
const isSettleCheck = (s: string) => s.includes("SELECT EXISTS") && s.includes('"cancelAt" <=');

let odd: { subscriptionId: string; paymentId: string };

beforeAll(async () => {
  await addSubscriptionRows(120);
  // One row and one payment with every optional column set, odd instants (milliseconds, before
  // 1970) and the largest amount the column holds.
  const sub = await db().subscription.findFirstOrThrow({ where: { schoolId: SCHOOL }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], skip: 3 });
  await db().subscription.update({
    where: { id: sub.id },
    data: {
      cancelAt: new Date("2027-01-02T03:04:05.999Z"),
      cancelReason: "moving away",
      cancelType: "custom_date",
      pausedAt: new Date("2026-11-20T10:00:00.001Z"),
      endAt: new Date(-1500),
      canceledAt: null,
      collectionMethod: "charge_automatically",
      scheduledPlanId: PLANS.monthly,
    },
  });
  const payment = await db().payment.create({
    data: {
      schoolId: SCHOOL,
      subscriptionId: sub.id,
      amount: "9999999999.99",
      refundedAmount: "0.05",
      refundedAt: new Date("2026-11-20T11:00:00.500Z"),
      currency: "EUR",
      state: "failed",
      failureCode: "card_declined",
      failureMessage: "Your card was declined.",
      failedAt: new Date("2026-11-20T11:00:01.250Z"),
      periodStart: new Date("2026-11-01T00:00:00.000Z"),
      periodEnd: new Date("2026-12-01T00:00:00.000Z"),
      billingReason: "subscription_cycle",
      provider: "test",
      providerPaymentId: "pi_test",
      paymentMethodId: "pm_card_visa",
      attempt: 3,
      planId: PLANS.monthly,
      description: "odd one",
      createdAt: new Date("2020-01-01T00:00:00.001Z"),
    },
  });
  odd = { subscriptionId: sub.id, paymentId: payment.id };
});

describe("a page of subscriptions' statements", () => {
  it("the fairness scenario's request: one settle check, the four pages, one read each of plans, users and payments, nothing through Prisma", async () => {
    const { result, sql } = await statementsOf(LANE, () => gql(app, ABUSE));
    expect(result.status).toBe(200);
    expect(result.body.errors).toBeUndefined();
    for (const p of ["p0", "p1", "p2", "p3"]) expect(result.body.data[p].nodes).toHaveLength(100);
    const reads = sql.filter((s) => !isKeyCheck(s));
    expect(reads.filter(isSettleCheck)).toHaveLength(1);
    expect(reads.filter((s) => /FROM "Subscription" s\s/.test(s) && s.includes('"createdAtMs"'))).toHaveLength(4);
    expect(reads.filter((s) => /FROM "MembershipPlan"\s/.test(s))).toHaveLength(1);
    expect(reads.filter((s) => /FROM "User" WHERE/.test(s))).toHaveLength(1);
    expect(reads.filter((s) => /FROM "Payment"\s/.test(s))).toHaveLength(1);
    expect(reads).toHaveLength(1 + 4 + 3);
    expect(reads.filter((s) => s.includes('"public".'))).toEqual([]);
  });

  it("every statement of that request is a named (prepared) one: none is parsed and planned per request, the settle check included", async () => {
    const seen = await rowStatementsDuring(async () => {
      const res = await gql(app, ABUSE);
      expect(res.status).toBe(200);
    });
    expect(seen.filter((s) => isSettleCheck(s.sql)).map((s) => s.name)).toEqual(["anything-due"]);
    expect(seen.filter((s) => !s.name).map((s) => s.sql)).toEqual([]);
  });

  it("a page computes its wire columns for its own rows only, never for every row the planner sorts", async () => {
    // A school's rows may be sorted whole (a seq scan and a top-N sort: PGlite's plan for a school of
    // 10,000); computed below the LIMIT, the epoch columns cost 4× the statement's time there.
    const statements = await rowStatementsDuring(() => gql(app, `{ ${PAGE} }`));
    const page = statements.find((s) => s.sql.includes('"createdAtMs"'))!;
    expect(page).toBeDefined();
    const rows = await db().$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (FORMAT JSON, VERBOSE) ${page.sql}`, ...page.args);
    const json = rows[0]!["QUERY PLAN"];
    type VerboseNode = PlanNode & { Output?: string[]; Plans?: VerboseNode[] };
    const plan = ((typeof json === "string" ? JSON.parse(json) : json) as { Plan: VerboseNode }[])[0]!.Plan;
    const limit = (planNodes(plan) as VerboseNode[]).find((n) => n["Node Type"] === "Limit")!;
    expect(limit).toBeDefined();
    const computedBelow = (planNodes(limit) as VerboseNode[]).flatMap((n) => (n.Output ?? []).filter((o) => /extract|floor/i.test(o)));
    expect(computedBelow).toEqual([]);
  });

  it("rows selected through fragments get the same values, with the same statements", async () => {
    const plain = await statementsOf(LANE, () => gql(app, `{ ${PAGE} }`));
    const fragments = await statementsOf(LANE, () =>
      gql(app, `{ subscriptions(first: 100) { nodes { ...Row ... on Subscription { payments { id amount state } } } } } fragment Row on Subscription { id state isCancellable plan { name price } user { email name } }`),
    );
    expect(fragments.result.body.errors).toBeUndefined();
    expect(fragments.result.body.data).toEqual(plain.result.body.data);
    expect(fragments.sql.filter((s) => !isKeyCheck(s))).toHaveLength(plain.sql.filter((s) => !isKeyCheck(s)).length);
  });

  it("settles once per request, before any page is read: a due cancellation shows in every alias", async () => {
    const [due] = await db().subscription.findMany({ where: { schoolId: SCHOOL, state: "active", cancelAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 1 });
    await db().subscription.update({ where: { id: due!.id }, data: { cancelAt: new Date(TEST_NOW.getTime() - 60_000) } });
    const query = `{ a: subscriptions(first: 10) { nodes { id state isCanceling } } b: subscriptions(first: 10, state: "canceled") { nodes { id state } } }`;
    const { result, sql } = await statementsOf(LANE, () => gql(app, query));
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.a.nodes.find((n: { id: string }) => n.id === due!.id)).toEqual({ id: due!.id, state: "canceled", isCanceling: false });
    expect(result.body.data.b.nodes.map((n: { id: string }) => n.id)).toContain(due!.id);
    expect(sql.filter(isSettleCheck)).toHaveLength(1);
    expect(sql.filter((s) => /^\s*UPDATE "Subscription"/.test(s) && s.includes("'canceled'"))).toHaveLength(1);
  });
});

describe("the wire reads equal the presenters on Prisma's records", () => {
  const withoutExtras = <T extends { userId?: unknown; createdAtMs?: unknown }>(r: T) => {
    const { userId: _u, createdAtMs: _c, ...rest } = r;
    return { ...rest };
  };

  it("pages: every filter, their rows and cursors", async () => {
    const first = await listSubscriptionWireRows({ schoolId: SCHOOL, filter: { first: 5 }, now: TEST_NOW });
    const filters: SubscriptionFilter[] = [
      { first: 100 },
      { first: 7, after: first.pageInfo.endCursor },
      { first: 100, state: "active" },
      { first: 100, planId: PLANS.monthly },
      { first: 100, planId: "not-a-uuid" },
      { first: 100, email: "  BATCH.3@example.com " },
      { first: 100, state: "active", planId: PLANS.legacyAnnual, after: first.pageInfo.endCursor },
      { first: 100, state: "active", planId: PLANS.monthly, email: "batch.5@example.com", after: first.pageInfo.endCursor },
    ];
    for (const filter of filters) {
      const wire = await listSubscriptionWireRows({ schoolId: SCHOOL, filter, now: TEST_NOW });
      const records = await listSubscriptions({ schoolId: SCHOOL, filter, now: TEST_NOW });
      expect(wire.nodes.map(withoutExtras), JSON.stringify(filter)).toStrictEqual(records.nodes.map((r) => ({ ...presentSubscriptionRow(r) })));
      expect(wire.nodes.map((n) => n.userId)).toEqual(records.nodes.map((r) => r.userId));
      expect(wire.nodes.map((n) => n.createdAtMs)).toEqual(records.nodes.map((r) => r.createdAt.getTime()));
      expect(wire.pageInfo).toStrictEqual(records.pageInfo);
    }
    const all = await listSubscriptionWireRows({ schoolId: SCHOOL, filter: { first: 100 }, now: TEST_NOW });
    const row = all.nodes.find((n) => n.id === odd.subscriptionId)!;
    expect(row).toMatchObject({ endAt: -2, isPaused: true, isCanceling: true, collectionMethod: "charge_automatically", scheduledPlanId: PLANS.monthly });
  });

  it("pages: bad arguments are refused as before", async () => {
    for (const filter of [{ first: 0 }, { state: "nope" }, { email: "not an email" }, { after: "nope" }] as SubscriptionFilter[]) {
      const wire = await listSubscriptionWireRows({ schoolId: SCHOOL, filter, now: TEST_NOW }).catch((e: Error) => e.message);
      const records = await listSubscriptions({ schoolId: SCHOOL, filter, now: TEST_NOW }).catch((e: Error) => e.message);
      expect(typeof wire).toBe("string");
      expect(wire).toBe(records);
    }
  });

  it("plans of the school only, users and payments", async () => {
    const plans = await db().membershipPlan.findMany({});
    const own = plans.filter((p) => p.schoolId === SCHOOL);
    expect(plans.length).toBeGreaterThan(own.length);
    const found = await findPlanWires({ schoolId: SCHOOL, ids: plans.map((p) => p.id) });
    expect([...found.keys()].sort()).toEqual(own.map((p) => p.id).sort());
    for (const p of own) expect(found.get(p.id)).toStrictEqual({ ...presentPlan(p) });

    const users = await db().user.findMany({ take: 50 });
    const foundUsers = await findUserWires({ ids: users.map((u) => u.id) });
    for (const u of users) expect(foundUsers.get(u.id)).toStrictEqual({ ...presentUser(u) });

    const subs = await db().subscription.findMany({ where: { schoolId: SCHOOL }, select: { id: true } });
    const ids = subs.map((s) => s.id);
    const payments = await listPaymentWiresOfSubscriptions({ subscriptionIds: ids });
    const records = await db().payment.findMany({ where: { subscriptionId: { in: ids } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(records.some((p) => p.id === odd.paymentId)).toBe(true);
    for (const id of ids) {
      expect(payments.get(id), id).toStrictEqual(records.filter((p) => p.subscriptionId === id).map((p) => ({ ...presentPayment(p) })));
    }
    expect(payments.get(odd.subscriptionId)![0]).toMatchObject({ amount: "9999999999.99", refundedAmount: "0.05", attempt: 3 });
  });
});
