import { db, dbHandle } from "@/lib/db/client";

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

/**
 * SELECTs that read from `table`, as Prisma writes them (`FROM "public"."Table"`) or as the raw
 * statements do (`FROM "Table"`, lib/db/raw.ts; the lazy settle's due check is one of them).
 */
export const selectsFrom = (sql: string[], table: string) =>
  sql.filter((s) => /^\s*SELECT\b/i.test(s) && (s.includes(`FROM "public"."${table}"`) || new RegExp(`\\bFROM "${table}"(?:\\s|$)`).test(s)));

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

/** The statements `fn` sends that read or write rows, with their arguments (to EXPLAIN them) and the name of a named one. */
export async function rowStatementsDuring(fn: () => Promise<unknown>): Promise<{ sql: string; args: unknown[]; name?: string }[]> {
  const seen: { sql: string; args: unknown[]; name?: string }[] = [];
  const stop = dbHandle().onStatement((s) => seen.push({ sql: s.sql, args: s.args, ...(s.name ? { name: s.name } : {}) }));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen.filter((s) => /^\s*(SELECT|UPDATE|DELETE|INSERT|WITH)\b/i.test(s.sql));
}

/** A node of Postgres's JSON plan, with the fields the plan tests read. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Subplan Name"?: string;
  Plans?: PlanNode[];
}

/** A plan node and every node below it. */
export const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/** The plan in the rows of `EXPLAIN (FORMAT JSON)` (pg gives it parsed, PGlite as text). */
function planIn(rows: { "QUERY PLAN": unknown }[]): PlanNode {
  const json = rows[0]!["QUERY PLAN"];
  return ((typeof json === "string" ? JSON.parse(json) : json) as { Plan: PlanNode }[])[0]!.Plan;
}

/** The plan of a statement as sent (its SQL and parameters), without running it. */
export async function planOf(statement: { sql: string; args: unknown[] }): Promise<PlanNode> {
  const rows = await db().$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (FORMAT JSON) ${statement.sql}`, ...statement.args);
  return planIn(rows);
}

let probes = 0;

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** A statement argument as an SQL literal (tests only: the values come from our own requests). */
function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (value instanceof Date) return quoted(value.toISOString());
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return quoted(`{${value.map((v) => `"${String(v).replace(/["\\]/g, "\\$&")}"`).join(",")}}`);
  return quoted(String(value));
}

/**
 * The generic plan of a statement as sent: the plan a named statement is cached with (Postgres
 * switches a prepared statement to it after five executions and keeps it until its tables' stats
 * are invalidated). Made with the statement prepared and `plan_cache_mode = force_generic_plan`, so
 * its parameters are unknown to the planner, as they are to that cached plan. With `analyze`, the
 * statement is run with that plan and its arguments (read statements only: it really runs).
 */
export async function genericPlanOf(statement: { sql: string; args: unknown[] }, options: { analyze?: boolean } = {}): Promise<PlanNode> {
  const name = `generic_plan_probe_${++probes}`;
  return db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL plan_cache_mode = force_generic_plan`);
    await tx.$executeRawUnsafe(`PREPARE ${name} AS ${statement.sql}`);
    // EXECUTE's arguments are parsed with it, not bound: written as literals (the values do not
    // shape a generic plan; they only have to convert to the parameters' types).
    const args = statement.args.length ? `(${statement.args.map(sqlLiteral).join(", ")})` : "";
    const rows = await tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(`EXPLAIN (${options.analyze ? "ANALYZE, " : ""}FORMAT JSON) EXECUTE ${name}${args}`);
    await tx.$executeRawUnsafe(`DEALLOCATE ${name}`);
    return planIn(rows);
  });
}
