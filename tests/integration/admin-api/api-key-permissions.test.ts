import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/credentials/api-key";
import { createApiKey } from "@/lib/credentials/api-keys/create-api-key";
import { checkPermissionList } from "@/lib/credentials/api-keys/key-input";
import { rotateApiKey } from "@/lib/credentials/api-keys/rotate-api-key";
import { ADMIN_OPERATIONS, ALL_PERMISSIONS, grantedOperations } from "@/lib/credentials/permissions";
import { verifyApiKey } from "@/lib/credentials/verify-api-key";
import { db } from "@/lib/db/client";
import { createSchool } from "@/lib/schools/create-school";
import { DEMO_IDS, TEST_NOW, adminAppForSuite, gql } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// API key permissions (docs/decisions.md, "API key permissions: every permission, or a list"): a key
// made with every permission stores ALL_PERMISSIONS and runs every operation, those added after it
// was made included; a key with a list runs exactly that list, and a new operation never widens it.
// The migration that moved the keys made before the rule existed follows the same line.
const app = adminAppForSuite();

/** The operations issue 28 added, which keys issued before it never received. */
const ADDED = ["changeSubscriptionPlan", "updateSubscriptionPaymentMethod", "payments", "auditEvents"] as const;
/** Every operation there was before them: the full list of main from 5af54f0 to 0fd7ff1. */
const BEFORE = ADMIN_OPERATIONS.filter((op) => !(ADDED as readonly string[]).includes(op));
const FIRST = ["createSubscription", "updateSubscription", "cancelSubscription", "enrollStudentToCourse", "courses", "membershipPlans", "subscription", "subscriptions"];

const make = async (name: string, permissions: string[]) => {
  const r = await createApiKey({ schoolId: DEMO_IDS.school, input: { name, permissions }, now: TEST_NOW, actor: TEST_ACTOR });
  return r.record!;
};

const PAYMENTS = `{ payments(first: 1) { nodes { id } } }`;
const AUDIT = `{ auditEvents(first: 1) { nodes { id } } }`;
const CHANGE_PLAN = `mutation { changeSubscriptionPlan(input: { id: "00000000-0000-4000-8000-000000000000", planId: "00000000-0000-4000-8000-000000000000" }) { errors } }`;

describe("stored permissions", () => {
  it("ALL_PERMISSIONS grants every operation; a list grants exactly its (still existing) operations", () => {
    expect(grantedOperations([ALL_PERMISSIONS])).toEqual([...ADMIN_OPERATIONS]);
    expect(grantedOperations(["courses", ALL_PERMISSIONS])).toEqual([...ADMIN_OPERATIONS]);
    expect(grantedOperations(BEFORE)).toEqual(BEFORE);
    expect(grantedOperations(["courses", "droppedOperation"])).toEqual(["courses"]);
    expect(grantedOperations([])).toEqual([]);
  });

  it("choosing every permission stores it alone; unknown names are refused", () => {
    expect(checkPermissionList([ALL_PERMISSIONS, "courses"])).toEqual({ permissions: [ALL_PERMISSIONS] });
    expect(checkPermissionList(["courses", "courses"])).toEqual({ permissions: ["courses"] });
    expect(checkPermissionList(["**"])).toEqual({ error: 'Unknown permission "**"' });
  });

  it("the school's first key, the demo keys and a rotated every-permission key store ALL_PERMISSIONS", async () => {
    const created = await createSchool({ db: db(), subdomain: "perms", name: "Perms", ownerEmail: "owner@perms.example", now: TEST_NOW, actor: TEST_ACTOR });
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: created.apiKey.id } })).permissions).toEqual([ALL_PERMISSIONS]);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: DEMO_IDS.apiKeys.full } })).permissions).toEqual([ALL_PERMISSIONS]);
    const all = await make("all of them", [ALL_PERMISSIONS]);
    const rotated = await rotateApiKey({ schoolId: DEMO_IDS.school, input: { id: all.apiKey.id }, now: TEST_NOW, actor: TEST_ACTOR });
    expect(rotated.record!.apiKey.permissions).toEqual([ALL_PERMISSIONS]);
  });
});

describe("over HTTP", () => {
  it("a key with every permission runs the operations a list made before them lacks; the list stays refused", async () => {
    const all = await make("every permission", [ALL_PERMISSIONS]);
    const listed = await make("the list of its day", BEFORE);
    expect((await verifyApiKey({ key: all.key, now: TEST_NOW })).permissions).toEqual([...ADMIN_OPERATIONS]);
    expect((await verifyApiKey({ key: listed.key, now: TEST_NOW })).permissions).toEqual(BEFORE);

    for (const query of [PAYMENTS, AUDIT]) {
      const ok = await gql(app, query, {}, { key: all.key });
      expect(ok.body.errors, query).toBeUndefined();
      const refused = await gql(app, query, {}, { key: listed.key });
      expect(refused.body.errors[0].extensions.code, query).toBe("FORBIDDEN");
    }
    expect((await gql(app, CHANGE_PLAN, {}, { key: all.key })).body.data.changeSubscriptionPlan.errors).not.toEqual(["Unauthorized"]);
    expect((await gql(app, CHANGE_PLAN, {}, { key: listed.key })).body.data.changeSubscriptionPlan.errors).toEqual(["Unauthorized"]);
  });
});

describe("the migration of keys made before the rule (20261126091500_api_key_all_permissions)", () => {
  const sql = readFileSync(path.resolve("prisma/migrations/20261126091500_api_key_all_permissions/migration.sql"), "utf8");

  it("every-permission keys of each release become ALL_PERMISSIONS; chosen lists and later copies of an old list stay as they were", async () => {
    const cases = [
      { name: "full list of 5af54f0, made then", permissions: BEFORE, createdAt: "2026-11-26T05:00:00Z", widened: true },
      { name: "same list, made after it grew", permissions: BEFORE, createdAt: "2026-11-26T08:00:00Z", widened: false },
      { name: "today's full list", permissions: [...ADMIN_OPERATIONS].reverse(), createdAt: "2026-11-26T08:00:00Z", widened: true },
      { name: "the first release's list, made then", permissions: FIRST, createdAt: "2026-11-22T00:00:00Z", widened: true },
      { name: "the first release's list, made later", permissions: FIRST, createdAt: "2026-11-25T00:00:00Z", widened: false },
      { name: "a chosen list", permissions: BEFORE.filter((op) => op !== "refundPayment"), createdAt: "2026-11-26T05:00:00Z", widened: false },
      { name: "nothing", permissions: [], createdAt: "2026-11-26T05:00:00Z", widened: false },
    ];
    const ids: string[] = [];
    for (const c of cases) {
      const { prefix, secretHash } = generateApiKey();
      const row = await db().apiKey.create({ data: { schoolId: DEMO_IDS.school, name: c.name, prefix, secretHash, permissions: c.permissions, createdAt: new Date(c.createdAt) } });
      ids.push(row.id);
    }
    await db().$executeRawUnsafe(sql);
    for (const [i, c] of cases.entries()) {
      const row = await db().apiKey.findUniqueOrThrow({ where: { id: ids[i] } });
      expect(row.permissions, c.name).toEqual(c.widened ? [ALL_PERMISSIONS] : c.permissions);
    }
  });
});
