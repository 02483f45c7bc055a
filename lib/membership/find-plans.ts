import { rawQuery } from "../db/raw";
import type { PlanWire } from "./presenter";
import { moneyText, unixSeconds } from "./wire-sql";

// One named statement, rows already in presentPlan's shape (lib/membership/wire-sql.ts).
const FIND_PLANS = `
SELECT "id"::text AS "id", "name", "slug", "planType"::text AS "planType", ("planType" = 'lifetime') AS "isLifetime",
       "interval"::text AS "interval", "intervalCount", ${moneyText('"price"')} AS "price", "currency",
       "lengthCount", "lengthInterval"::text AS "lengthInterval", ${unixSeconds('"fixedEndAt"')} AS "fixedEndAt",
       "status"::text AS "status"
  FROM "MembershipPlan"
 WHERE "schoolId" = $1::uuid AND "id" = ANY($2::uuid[])`;

/**
 * The school's plans with these ids as presentPlan shows them, in one statement (other schools' ids
 * are simply absent).
 */
export async function findPlanWires(options: { schoolId: string; ids: readonly string[] }): Promise<Map<string, PlanWire>> {
  if (options.ids.length === 0) return new Map();
  const rows = await rawQuery<PlanWire>(FIND_PLANS, [options.schoolId, [...new Set(options.ids)]], { name: "admin-find-plans" });
  return new Map(rows.map((p) => [p.id, p]));
}
