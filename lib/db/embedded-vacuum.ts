// Autovacuum for the embedded database. PGlite runs Postgres in single-user mode, which has no
// autovacuum launcher: without this, its tables would never be vacuumed or analyzed. Dead row
// versions would pile up in every table and index (each update of an indexed column leaves one), and
// the planner would keep the statistics of the day a table was created (none, for tables that
// started empty), so a plan chosen for a handful of rows would read thousands once the school grew
// (docs/benchmarks.md, "Renewals"). Postgres itself needs none of this: its autovacuum does the same.
import { dbHandle } from "./client";
import { rawQuery } from "./raw";

/**
 * Postgres's own autovacuum defaults (autovacuum_vacuum_threshold / _scale_factor,
 * autovacuum_analyze_threshold / _scale_factor): a table is vacuumed once its dead rows pass
 * 50 + 20% of its live rows, and analyzed once the rows changed since its last analysis pass 50 + 10%.
 */
export const VACUUM_THRESHOLD = 50;
export const VACUUM_SCALE_FACTOR = 0.2;
export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE_FACTOR = 0.1;

interface TableActivity {
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
}

/** What autovacuum would do to one table now: vacuum (which analyzes too), analyze, or nothing. */
export function maintenanceFor(t: TableActivity): "vacuum" | "analyze" | null {
  if (t.dead > VACUUM_THRESHOLD + VACUUM_SCALE_FACTOR * t.live) return "vacuum";
  if (t.modifiedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * t.live) return "analyze";
  return null;
}

/**
 * On the embedded database, vacuums and analyzes the tables autovacuum would (the counters of
 * pg_stat_user_tables, which PGlite keeps like Postgres); on Postgres, nothing. One statistics read
 * when nothing is due, so long jobs may call it between batches. Each command runs through the fair
 * gate like any statement: on PGlite's single connection it waits for the transaction in progress.
 */
export async function vacuumEmbedded(): Promise<{ vacuumed: string[]; analyzed: string[] }> {
  const done = { vacuumed: [] as string[], analyzed: [] as string[] };
  if (dbHandle().driver.kind !== "pglite") return done;
  // The counters reach the shared statistics at most once a second; this makes the statement's own
  // end flush them, so the read below sees every write made before the call.
  await rawQuery(`SELECT pg_stat_force_next_flush()::text`, []);
  const tables = await rawQuery<TableActivity>(
    `SELECT relname AS "table", n_live_tup::float8 AS "live", n_dead_tup::float8 AS "dead", n_mod_since_analyze::float8 AS "modifiedSinceAnalyze"
       FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY relname`,
    [],
  );
  for (const t of tables) {
    const action = maintenanceFor(t);
    if (!action) continue;
    // The name comes from the catalogue, quoted as an identifier all the same.
    const name = `"${t.table.replace(/"/g, '""')}"`;
    await rawQuery(action === "vacuum" ? `VACUUM (ANALYZE) ${name}` : `ANALYZE ${name}`, []);
    (action === "vacuum" ? done.vacuumed : done.analyzed).push(t.table);
  }
  return done;
}
