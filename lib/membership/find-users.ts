import { rawQuery } from "../db/raw";
import type { UserWire } from "./presenter";

const FIND_USERS = `SELECT "id"::text AS "id", "email", "name" FROM "User" WHERE "id" = ANY($1::uuid[])`;

/**
 * Users with these ids as presentUser shows them, in one named statement. Callers pass ids read from
 * the school's own rows (subscriptions, enrollments): users are shared across schools, so the id
 * must come from there.
 */
export async function findUserWires(options: { ids: readonly string[] }): Promise<Map<string, UserWire>> {
  if (options.ids.length === 0) return new Map();
  const rows = await rawQuery<UserWire>(FIND_USERS, [[...new Set(options.ids)]], { name: "admin-find-users" });
  return new Map(rows.map((u) => [u.id, u]));
}
