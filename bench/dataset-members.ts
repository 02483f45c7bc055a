// Members for the bench's set-based datasets (bench/renewal-dataset.ts, bench/subscription-pool.ts):
// rows 0…last of the school, written by INSERT … SELECT generate_series, each row's user id, email and
// name given as SQL expressions of `i`.

export interface DatasetMembers {
  schoolId: string;
  /** The last row number (count − 1). */
  last: number;
  /** SQL expressions of the row number `i`. */
  userId: string;
  email: string;
  name: string;
}

/** The users (email verified) and their student memberships of the school. */
export function memberStatements(m: DatasetMembers): string[] {
  return [
    `INSERT INTO "User" ("id", "email", "name", "emailVerified", "createdAt", "updatedAt")
     SELECT ${m.userId}, ${m.email}, ${m.name}, true, now(), now()
       FROM generate_series(0, ${m.last}) AS i`,
    `INSERT INTO "SchoolMembership" ("id", "schoolId", "userId", "roles", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), '${m.schoolId}'::uuid, ${m.userId}, ARRAY['student'], now(), now()
       FROM generate_series(0, ${m.last}) AS i`,
  ];
}
