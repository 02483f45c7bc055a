// A statement through the raw driver (pg or PGlite), for the few hot statements where Prisma's
// per-statement cost dominates (docs/benchmarks.md). It takes a connection through the same fair
// gate as Prisma's statements (lib/db/fair-gate.ts), in the lane of the current credential.
import { dbHandle } from "./client";
import { currentDbLane, SHARED_LANE } from "./lane";
import { pgliteQueryNamed } from "./pglite-prepared";
import { declareReadOnly } from "./pglite-writes";

export interface RawQueryOptions {
  /** Prepares the statement once per connection under this name (one name per statement text). */
  name?: string;
  /**
   * The named statement is one SELECT that changes nothing: on the embedded database its
   * executions leave the write generation as it is, so process caches of reads stay valid
   * (lib/db/pglite-writes.ts).
   */
  readOnly?: boolean;
}

export async function rawQuery<T>(sql: string, params: unknown[], options: RawQueryOptions = {}): Promise<T[]> {
  const handle = dbHandle();
  const lane = currentDbLane();
  return handle.gate.run(lane?.key ?? SHARED_LANE, lane?.signal, async () => {
    // Counted like Prisma's statements (tests prove a hot path's statement count with it).
    handle.noteStatement({ lane: lane?.key ?? SHARED_LANE, sql, args: params, inTransaction: false, ...(options.name ? { name: options.name } : {}) });
    const driver = handle.driver;
    // A name makes each pooled connection (PGlite: the one session) parse the statement once, then
    // only bind it.
    if (driver.kind === "pglite") {
      if (options.name && options.readOnly) declareReadOnly(driver.pglite, options.name);
      return options.name ? pgliteQueryNamed<T>(driver.pglite, options.name, sql, params) : (await driver.pglite.query<T>(sql, params)).rows;
    }
    const result = await driver.pool.query(options.name ? { name: options.name, text: sql, values: params } : { text: sql, values: params });
    return result.rows as T[];
  });
}

/** A timestamp column of a raw row as a Date: pg parses timestamptz already, PGlite may give text. */
export const rowDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
