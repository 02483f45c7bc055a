import { dbHandle } from "@/lib/db/client";

/** The SQL statements sent for database lane `lane` (a credential key) while `fn` runs. */
export async function statementsOf<T>(lane: string, fn: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const sql: string[] = [];
  const stop = dbHandle().onStatement((s) => {
    if (s.lane === lane) sql.push(s.sql);
  });
  try {
    return { result: await fn(), sql };
  } finally {
    stop();
  }
}

/** SELECTs that read from `table` (as Prisma writes them: `FROM "public"."Table"`). */
export const selectsFrom = (sql: string[], table: string) =>
  sql.filter((s) => /^\s*SELECT\b/i.test(s) && s.includes(`FROM "public"."${table}"`));
