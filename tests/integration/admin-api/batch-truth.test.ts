// Batches keep their truth (issue 11): every alias stands alone. One aliased mutation failing
// unexpectedly never nulls or hides what a sibling committed, and a request whose mutations partly
// committed keeps its Idempotency-Key, so a retry replays instead of applying them twice.
//
// The unexpected failure is a real one from the real database (PGlite, and Postgres with
// TEST_DATABASE_URL): a trigger refuses to insert users whose email starts with "refused.", as a
// constraint the service does not know about would. Nothing in the service is mocked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { PLANS, adminAppForSuite, freshEmail, gql } from "./helpers";

const app = adminAppForSuite();

beforeAll(async () => {
  await db().$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_refuse_user() RETURNS trigger AS $$
    BEGIN
      IF NEW.email LIKE 'refused.%' THEN RAISE EXCEPTION 'test trigger refuses %', NEW.email; END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await db().$executeRawUnsafe(`CREATE TRIGGER test_refuse_user BEFORE INSERT ON "User" FOR EACH ROW EXECUTE FUNCTION test_refuse_user()`);
});
afterAll(async () => {
  await db().$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_refuse_user ON "User"`);
});

const BATCH = `mutation Batch($a: AdminCreateSubscriptionInput!, $b: AdminCreateSubscriptionInput!) {
  a: createSubscription(input: $a) { errors subscription { id user { email } } }
  b: createSubscription(input: $b) { errors subscription { id user { email } } }
}`;

const batchVars = () => ({
  a: { email: freshEmail("committed"), name: "A", planId: PLANS.monthly },
  b: { email: freshEmail("refused"), name: "B", planId: PLANS.monthly },
});

const subscriptionsOf = (email: string) => db().subscription.count({ where: { user: { email } } });

describe("aliased mutations keep their truth", () => {
  it("an unexpected failure in one alias nulls only that alias; the committed sibling is reported", async () => {
    const vars = batchVars();
    const r = await gql(app, BATCH, vars);
    expect(r.status).toBe(200);
    expect(r.body.data.a.errors).toEqual([]);
    expect(r.body.data.a.subscription.user.email).toBe(vars.a.email);
    expect(r.body.data.b).toBeNull();
    expect(r.body.errors).toEqual([
      { message: "Unexpected error.", locations: [expect.any(Object)], path: ["b"], extensions: { code: "INTERNAL_SERVER_ERROR" } },
    ]);
    expect(r.body.data.a.subscription.id).toBe((await db().subscription.findFirstOrThrow({ where: { user: { email: vars.a.email } } })).id);
    expect(await subscriptionsOf(vars.a.email)).toBe(1);
    expect(await db().user.count({ where: { email: vars.b.email } })).toBe(0);
  });

  it("a partly committed batch keeps its Idempotency-Key: the retry replays it and creates nothing", async () => {
    const vars = batchVars();
    const headers = { "idempotency-key": `batch-${vars.a.email}` };
    const first = await gql(app, BATCH, vars, { headers });
    expect(first.body.data.a.errors).toEqual([]);
    expect(first.body.data.b).toBeNull();
    const retry = await gql(app, BATCH, vars, { headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body.data).toEqual(first.body.data);
    expect(retry.body.errors).toEqual(first.body.errors);
    expect(JSON.stringify(retry.body)).not.toMatch(/trigger|refuses/);
    const stored = await db().idempotencyKey.findFirstOrThrow({ where: { key: headers["idempotency-key"] } });
    expect(stored.responseBody).toContain('"Unexpected error."');
    expect(stored.responseBody).not.toMatch(/trigger|refuses|prisma|P20\d\d/i);
    expect(await subscriptionsOf(vars.a.email)).toBe(1);
    // Even once the failing alias could succeed, the key answers with what happened: the client
    // resends the failed alias alone, under a new key.
    await db().$executeRawUnsafe(`ALTER TABLE "User" DISABLE TRIGGER test_refuse_user`);
    try {
      const later = await gql(app, BATCH, vars, { headers });
      expect(later.headers.get("idempotent-replayed")).toBe("true");
      expect(later.body.data.b).toBeNull();
      expect(await subscriptionsOf(vars.a.email)).toBe(1);
      expect(await subscriptionsOf(vars.b.email)).toBe(0);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "User" ENABLE TRIGGER test_refuse_user`);
    }
  });

  it("a keyed request in which nothing committed releases its key: the retry executes", async () => {
    const vars = batchVars();
    const only = `mutation One($b: AdminCreateSubscriptionInput!) { b: createSubscription(input: $b) { errors subscription { id } } }`;
    const headers = { "idempotency-key": `single-${vars.b.email}` };
    const first = await gql(app, only, { b: vars.b }, { headers });
    expect(first.body.data.b).toBeNull();
    expect(first.body.errors[0].extensions.code).toBe("INTERNAL_SERVER_ERROR");
    await db().$executeRawUnsafe(`ALTER TABLE "User" DISABLE TRIGGER test_refuse_user`);
    try {
      const retry = await gql(app, only, { b: vars.b }, { headers });
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(retry.body.data.b.errors).toEqual([]);
      expect(await subscriptionsOf(vars.b.email)).toBe(1);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "User" ENABLE TRIGGER test_refuse_user`);
    }
  });
});
