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

/** Every statement sent while `fn` runs, any lane, whitespace collapsed (for tests that send one request at a time). */
export async function statementsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const sql: string[] = [];
  const stop = dbHandle().onStatement((s) => sql.push(s.sql.replace(/\s+/g, " ").trim()));
  try {
    return { result: await fn(), sql };
  } finally {
    stop();
  }
}

/** The statements `fn` sends that read or write rows, with their arguments (to EXPLAIN them). */
export async function rowStatementsDuring(fn: () => Promise<unknown>): Promise<{ sql: string; args: unknown[] }[]> {
  const seen: { sql: string; args: unknown[] }[] = [];
  const stop = dbHandle().onStatement((s) => seen.push({ sql: s.sql, args: s.args }));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen.filter((s) => /^\s*(SELECT|UPDATE|DELETE|INSERT|WITH)\b/i.test(s.sql));
}
