export const BUILT_IN_ROLES = ["owner", "manager", "admin", "teacher", "teaching_assistant", "student"] as const;

const rank = new Map<string, number>(BUILT_IN_ROLES.map((r, i) => [r, i]));

/** Highest privilege first: built-in roles in their fixed order, then custom roles alphabetically. */
export function sortRoles(roles: string[]): string[] {
  return [...new Set(roles)].sort((a, b) => {
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra !== undefined && rb !== undefined) return ra - rb;
    if (ra !== undefined) return -1;
    if (rb !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
