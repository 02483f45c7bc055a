import { db } from "../db/client";
import type { MembershipPlan } from "../db/generated/client";

/** The school's plans with these ids, in one statement (other schools' ids are simply absent). */
export async function findPlans(options: { schoolId: string; ids: readonly string[] }): Promise<Map<string, MembershipPlan>> {
  if (options.ids.length === 0) return new Map();
  const rows = await db().membershipPlan.findMany({ where: { schoolId: options.schoolId, id: { in: [...new Set(options.ids)] } } });
  return new Map(rows.map((p) => [p.id, p]));
}
