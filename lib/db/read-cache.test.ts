import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDbHandle, createDbHandle, setDbHandle, type DbHandle } from "./client";
import { createPgliteDriver } from "./driver";
import { declareReadOnly, watchWrites, writeGeneration } from "./pglite-writes";
import { pgliteQueryNamed } from "./pglite-prepared";
import { rawQuery } from "./raw";
import { createReadCache } from "./read-cache";
import { PGlite } from "@electric-sql/pglite";

// The embedded database's read cache against the database itself: whatever writes, by whichever
// path (PGlite's query, exec and transaction, Prisma's adapter, the raw driver's named statements),
// the next read answers what a read of the database answers now.
const SETUP = `CREATE TABLE item (k text PRIMARY KEY, v text NOT NULL, n int NOT NULL DEFAULT 0)`;
const BY_KEY = `SELECT k, v, n FROM item WHERE k = $1`;
interface Item {
  k: string;
  v: string;
  n: number;
}

let handle: DbHandle;
let pglite: PGlite;
// Starting PGlite takes seconds on a busy machine: more than the default 10 s hook timeout at times.
beforeAll(async () => {
  const driver = createPgliteDriver("memory://");
  if (driver.kind !== "pglite") throw new Error("expected PGlite");
  pglite = driver.pglite;
  handle = createDbHandle(driver);
  setDbHandle(handle);
  await pglite.exec(SETUP);
}, 120_000);
afterAll(async () => {
  await closeDbHandle(handle);
});

let caches = 0;
/** A cache of its own for each test (entries are per statement name). */
const newCache = (maxEntries = 100) => createReadCache<Item>({ name: `item-by-key-${++caches}`, sql: BY_KEY, maxEntries });

/** The statements the handle is told of while `fn` runs. */
async function statements<T>(fn: () => Promise<T>): Promise<{ result: T; count: number }> {
  let count = 0;
  const stop = handle.onStatement(() => count++);
  try {
    return { result: await fn(), count };
  } finally {
    stop();
  }
}

const truth = async (k: string) => (await pglite.query<Item>(BY_KEY, [k])).rows;

describe("the write generation", () => {
  it("moves on every statement but the execution of a named statement declared read-only", async () => {
    const g = () => writeGeneration(pglite)!;
    let at = g();
    const moved = async (what: string, fn: () => Promise<unknown>) => {
      await fn();
      expect(g(), what).toBeGreaterThan(at);
      at = g();
    };
    await moved("query", () => pglite.query(`INSERT INTO item (k, v) VALUES ('g1', 'a')`));
    await moved("a read through query", () => pglite.query(BY_KEY, ["g1"]));
    await moved("exec", () => pglite.exec(`UPDATE item SET n = n + 1 WHERE k = 'g1'`));
    await moved("transaction", () => pglite.transaction(async (tx) => tx.query(`UPDATE item SET n = n + 1 WHERE k = 'g1'`)));
    await moved("Prisma", () => handle.prisma.$executeRawUnsafe(`UPDATE item SET v = 'b' WHERE k = 'g1'`));
    await moved("a named write", () => pgliteQueryNamed(pglite, "gen-update", `UPDATE item SET n = n + 1 WHERE k = $1`, ["g1"]));
    await moved("preparing a read-only statement", () => (declareReadOnly(pglite, "gen-read"), pgliteQueryNamed(pglite, "gen-read", BY_KEY, ["g1"])));
    await pgliteQueryNamed(pglite, "gen-read", BY_KEY, ["g1"]);
    await pgliteQueryNamed(pglite, "gen-read", BY_KEY, ["nothing"]);
    expect(g(), "executing the declared read").toBe(at);
    await moved("the same name declared elsewhere is not read-only here", () => pgliteQueryNamed(pglite, "gen-update", `UPDATE item SET n = n + 1 WHERE k = $1`, ["g1"]));
  });

  it("is null on an instance nobody watches, and watching twice counts once", async () => {
    const other = new PGlite();
    try {
      await other.waitReady;
      expect(writeGeneration(other)).toBeNull();
      watchWrites(other);
      watchWrites(other);
      const delta = async (db: PGlite) => {
        const before = writeGeneration(db)!;
        await db.query("SELECT 1");
        return writeGeneration(db)! - before;
      };
      // One query is several calls into PGlite (Parse, Describe, Bind, Execute, Sync): as many
      // moves as on the driver's instance, watched once.
      expect(await delta(other)).toBe(await delta(pglite));
      expect(await delta(other)).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  }, 120_000);
});

describe("createReadCache", () => {
  it("reads the database once, then answers from memory until something is written", async () => {
    await pglite.query(`INSERT INTO item (k, v) VALUES ('a1', 'first')`);
    const cache = newCache();
    expect((await statements(() => cache.read(["a1"]))).count).toBe(1); // prepares the statement
    expect((await statements(() => cache.read(["a1"]))).count).toBe(1); // kept
    const hit = await statements(() => cache.read(["a1"]));
    expect(hit.count).toBe(0);
    expect(hit.result).toEqual([{ k: "a1", v: "first", n: 0 }]);
    expect(cache.stats().entries).toBe(1);

    await rawQuery(`UPDATE item SET v = 'second' WHERE k = $1`, ["a1"], { name: "a1-update" });
    expect(cache.stats().entries).toBe(0);
    const after = await statements(() => cache.read(["a1"]));
    expect(after.count).toBe(1);
    expect(after.result).toEqual([{ k: "a1", v: "second", n: 0 }]);
  });

  it("keeps frozen rows, never an empty answer, and at most maxEntries (least recently used dropped)", async () => {
    await pglite.query(`INSERT INTO item (k, v) VALUES ('b1', 'x'), ('b2', 'y'), ('b3', 'z')`);
    const cache = newCache(2);
    await cache.read(["b1"]); // prepares
    for (const k of ["b1", "b2", "missing"]) await cache.read([k]);
    expect(cache.stats().entries).toBe(2);
    const [row] = await cache.read(["b1"]);
    expect(Object.isFrozen(row)).toBe(true);
    expect(() => ((row as Item).v = "changed")).toThrow(TypeError);
    expect((await statements(() => cache.read(["missing"]))).count).toBe(1);
    await cache.read(["b3"]); // b2 was used least recently
    expect((await statements(() => cache.read(["b1"]))).count).toBe(0);
    expect((await statements(() => cache.read(["b2"]))).count).toBe(1);
  });

  it("never keeps a read that raced a write, whichever ran first", async () => {
    await pglite.query(`INSERT INTO item (k, v) VALUES ('c1', 'v0')`);
    const cache = newCache();
    await cache.read(["c1"]);
    for (let i = 1; i <= 6; i++) {
      const write = () => pglite.query(`UPDATE item SET v = 'v${i}' WHERE k = 'c1'`);
      const raced = i % 2 ? (await Promise.all([cache.read(["c1"]), write()]))[0] : (await Promise.all([write(), cache.read(["c1"])]))[1];
      expect([`v${i - 1}`, `v${i}`]).toContain(raced[0]!.v);
      expect(await cache.read(["c1"])).toEqual([{ k: "c1", v: `v${i}`, n: 0 }]);
      expect(await cache.read(["c1"])).toEqual([{ k: "c1", v: `v${i}`, n: 0 }]);
    }
  });

  it("refuses a statement that is not one SELECT", () => {
    expect(() => createReadCache({ name: "bad-1", sql: `UPDATE item SET n = 1 RETURNING *`, maxEntries: 1 })).toThrow(/one SELECT/);
    expect(() => createReadCache({ name: "bad-2", sql: `SELECT 1; DELETE FROM item`, maxEntries: 1 })).toThrow(/one SELECT/);
  });

  it("answers what the database holds after any sequence of reads and writes, by any path (property)", async () => {
    const keys = ["p1", "p2", "p3"];
    const write = fc.record({
      path: fc.constantFrom("query", "exec", "transaction", "prisma", "named"),
      op: fc.constantFrom("upsert", "bump", "delete"),
      k: fc.constantFrom(...keys),
      v: fc.string({ maxLength: 6 }).map((s) => s.replace(/[^a-z]/g, "") || "v"),
    });
    const op = fc.oneof(fc.record({ read: fc.constantFrom(...keys) }), write);
    // A step is one operation or several started at once (reads racing writes).
    const step = fc.array(op, { minLength: 1, maxLength: 3 });
    const sqlOf = (op: string, k: string, v: string) =>
      op === "upsert"
        ? `INSERT INTO item (k, v) VALUES ('${k}', '${v}') ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v`
        : op === "bump"
          ? `UPDATE item SET n = n + 1 WHERE k = '${k}'`
          : `DELETE FROM item WHERE k = '${k}'`;
    const namedSql: Record<string, string> = {
      upsert: `INSERT INTO item (k, v) VALUES ($1, $2) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v`,
      bump: `UPDATE item SET n = n + 1 WHERE k = $1`,
      delete: `DELETE FROM item WHERE k = $1`,
    };
    const cache = newCache(2);
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25, size: "max" }), async (steps) => {
        const run = async (s: (typeof steps)[number][number]) => {
          if ("read" in s) return void (await cache.read([s.read]));
          const sql = sqlOf(s.op, s.k, s.v);
          if (s.path === "query") await pglite.query(sql);
          else if (s.path === "exec") await pglite.exec(sql);
          else if (s.path === "transaction") await pglite.transaction(async (tx) => tx.query(sql));
          else if (s.path === "prisma") await handle.prisma.$executeRawUnsafe(sql);
          // Named, one statement per operation: after its first use only Bind, Execute and Sync.
          else await rawQuery(namedSql[s.op]!, s.op === "upsert" ? [s.k, s.v] : [s.k], { name: `prop-${s.op}` });
        };
        for (const batch of steps) {
          await Promise.all(batch.map(run));
          // Once the batch has settled, the cache answers what the database holds.
          for (const s of batch) if ("read" in s) expect(await cache.read([s.read])).toEqual(await truth(s.read));
        }
        for (const k of keys) expect(await cache.read([k])).toEqual(await truth(k));
      }),
      { numRuns: 60, seed: 30_27 },
    );
  });
});
