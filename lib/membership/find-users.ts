import { db } from "../db/client";
import type { User } from "../db/generated/client";

/**
 * Users with these ids, in one statement. Callers pass ids read from the school's own rows
 * (subscriptions, enrollments): users are shared across schools, so the id must come from there.
 */
export async function findUsers(options: { ids: readonly string[] }): Promise<Map<string, User>> {
  if (options.ids.length === 0) return new Map();
  const rows = await db().user.findMany({ where: { id: { in: [...new Set(options.ids)] } } });
  return new Map(rows.map((u) => [u.id, u]));
}
