import { BUILT_IN_ROLES } from "../core/roles";

// The staff console's permission matrix: which built-in role may see and do what at its school
// (docs/decisions.md, "Staff console"). Every console page and every console action asks `can()`
// on the server with the roles of the signed-in member's SchoolMembership; nothing is decided in
// the browser. Custom roles grant nothing here until they are given a row of their own.
//
//   permission          owner  manager  admin  teacher  teaching_assistant  student
//   overview              ✓      ✓        ✓
//   members:read          ✓      ✓        ✓
//   members:write         ✓      ✓        ✓
//   money:refund          ✓      ✓        ✓                                          (step-up)
//   courses:read_all      ✓      ✓        ✓
//   courses:read_own      ✓      ✓        ✓      ✓           ✓                      (read-only)
//   audit:read            ✓      ✓        ✓
//   keys:manage           ✓                                                         (step-up)
//   webhooks:manage       ✓                                                         (step-up for secrets)
//   apps:manage           ✓                                                         (step-up for secrets)
//
// "courses:read_own" is the enrollments of the courses the member teaches (CourseLecturer of the
// Lecturer linked to their account); "courses:read_all" widens it to every course of the school.

export const CONSOLE_PERMISSIONS = [
  "overview",
  "members:read",
  "members:write",
  "money:refund",
  "courses:read_all",
  "courses:read_own",
  "audit:read",
  "keys:manage",
  "webhooks:manage",
  "apps:manage",
] as const;

export type ConsolePermission = (typeof CONSOLE_PERMISSIONS)[number];
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

// Staff who run members and money also read the audit log: "who changed this member's subscription"
// is the question they answer (it names keys, apps and IP addresses, never a secret).
const STAFF: ConsolePermission[] = ["overview", "members:read", "members:write", "money:refund", "courses:read_all", "courses:read_own", "audit:read"];

export const PERMISSION_MATRIX: Record<BuiltInRole, readonly ConsolePermission[]> = {
  owner: CONSOLE_PERMISSIONS,
  manager: STAFF,
  admin: STAFF,
  teacher: ["courses:read_own"],
  teaching_assistant: ["courses:read_own"],
  student: [],
};

/** Every permission the roles grant together (unknown and custom role names grant none). */
export function permissionsOf(roles: readonly string[]): Set<ConsolePermission> {
  const granted = new Set<ConsolePermission>();
  for (const role of roles) {
    if (!Object.hasOwn(PERMISSION_MATRIX, role)) continue;
    for (const p of PERMISSION_MATRIX[role as BuiltInRole]) granted.add(p);
  }
  return granted;
}

export const can = (roles: readonly string[], permission: ConsolePermission) => permissionsOf(roles).has(permission);

/** Whether the roles open the console at all (any permission): students and custom roles do not. */
export const isConsoleStaff = (roles: readonly string[]) => permissionsOf(roles).size > 0;
