import { db } from "../db/client";

/** The school's membership plans (every status), in catalog order. */
export function listMembershipPlans(options: { schoolId: string }) {
  return db().membershipPlan.findMany({ where: { schoolId: options.schoolId }, orderBy: [{ position: "asc" }, { id: "asc" }] });
}
