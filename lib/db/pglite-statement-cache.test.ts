import { messages, PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedStatementTexts, pgliteWithStatementCache } from "./pglite-statement-cache";

const SETUP = `
  CREATE TABLE item (id uuid PRIMARY KEY, name text NOT NULL UNIQUE, tags text[], at timestamptz, doc jsonb, n bigint, price numeric);
`;
const INSERT = `INSERT INTO item (id, name, tags, at, doc, n, price) VALUES ($1::uuid, $2, $3::text[], $4, $5::jsonb, $6::bigint, $7::numeric) RETURNING *`;
const BY_NAME = `SELECT id, name, tags, at, doc, n, price FROM item WHERE name = $1`;

let db: PGlite;
let cached: PGlite;
// Starting PGlite takes seconds on a busy machine: more than the default 10 s hook timeout at times.
beforeAll(async () => {
  db = new PGlite();
  await db.exec(SETUP);
  cached = pgliteWithStatementCache(db);
}, 120_000);
afterAll(async () => {
  await db.close();
});

const prepared = async (on: PGlite = db) =>
  (await on.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements ORDER BY name`)).rows;
const namesOf = async (text: string) => (await prepared()).filter((p) => p.statement === text).map((p) => p.name);

describe("pgliteWithStatementCache", () => {
  it("answers what query() answers, in both row modes and with the caller's parsers", async () => {
    const upper = { 25: (v: string) => v.toUpperCase() };
    await fc.assert(
      fc.asyncProperty(
        fc.uuid(),
        fc.string({ maxLength: 40 }).filter((s) => !s.includes("\u0000")),
        fc.option(fc.array(fc.string({ maxLength: 8 }).filter((s) => !s.includes("\u0000")), { maxLength: 4 })),
        fc.option(fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })),
        fc.option(fc.jsonValue().map((v) => JSON.stringify(v).replaceAll("\\u0000", ""))),
        fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String)),
        fc.option(fc.integer().map((i) => `${i}.25`)),
        fc.constantFrom("array" as const, "object" as const),
        async (id, name, tags, at, doc, n, price, rowMode) => {
          const unique = `${id}:${name}`;
          const inserted = await cached.query(INSERT, [id, unique, tags, at, doc, n, price], { rowMode });
          const plain = await db.query(BY_NAME, [unique], { rowMode, parsers: upper });
          const viaCache = await cached.query(BY_NAME, [unique], { rowMode, parsers: upper });
          expect(viaCache.rows).toEqual(plain.rows);
          expect(viaCache.fields).toEqual(plain.fields);
          expect(inserted.affectedRows).toBe(1);
        },
      ),
      { seed: 20261128, numRuns: 50 },
    );
  });

  it("parses each text once per instance, then only binds it", async () => {
    await cached.query(BY_NAME, ["nobody"]);
    await cached.query(BY_NAME, ["nobody either"]);
    await cached.transaction((tx) => tx.query(BY_NAME, ["inside"]));
    expect(await namesOf(BY_NAME)).toHaveLength(1);
    expect(cachedStatementTexts(db)).toContain(BY_NAME);
  });

  it("counts the rows a statement without result rows changed", async () => {
    const touch = `UPDATE item SET n = n WHERE name = $1`;
    for (let i = 0; i < 3; i++) expect(await cached.query(touch, ["nobody"])).toMatchObject({ rows: [], affectedRows: 0 });
  });

  it("runs a transaction's statements inside it: a rollback takes their writes with it", async () => {
    const id = crypto.randomUUID();
    await expect(
      cached.transaction(async (tx) => {
        await tx.query(INSERT, [id, "rolled back", null, null, null, null, null]);
        expect((await tx.query(BY_NAME, ["rolled back"])).rows).toHaveLength(1);
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    expect((await cached.query(BY_NAME, ["rolled back"])).rows).toEqual([]);
    await cached.transaction((tx) => tx.query(INSERT, [crypto.randomUUID(), "committed", null, null, null, null, null]));
    expect((await db.query(BY_NAME, ["committed"])).rows).toHaveLength(1);
  });

  it("reports a failure mid-transaction as Postgres's error, rolls back, and keeps the statement usable", async () => {
    await cached.query(INSERT, [crypto.randomUUID(), "taken", null, null, null, null, null]);
    const id = crypto.randomUUID();
    const failed = cached.transaction(async (tx) => {
      await tx.query(INSERT, [id, "first of two", null, null, null, null, null]);
      await tx.query(INSERT, [crypto.randomUUID(), "taken", null, null, null, null, null]);
    });
    // The class Prisma's adapter turns into its own errors (P2002 for this one).
    await expect(failed).rejects.toBeInstanceOf(messages.DatabaseError);
    await expect(failed).rejects.toMatchObject({ code: "23505", constraint: "item_name_key" });
    expect(db.isInTransaction()).toBe(false);
    expect((await cached.query(BY_NAME, ["first of two"])).rows).toEqual([]);
    expect((await cached.query(INSERT, [id, "first of two", null, null, null, null, null])).affectedRows).toBe(1);
  });

  it("keeps no statement that failed to prepare, inside or outside a transaction", async () => {
    const broken = `SELECT nope FROM item WHERE name = $1`;
    await expect(cached.query(broken, ["x"])).rejects.toMatchObject({ code: "42703" });
    await expect(cached.transaction((tx) => tx.query(broken, ["x"]))).rejects.toMatchObject({ code: "42703" });
    // Inside a transaction a failed statement aborts it: the next one cannot even be parsed.
    const fresh = `SELECT count(*)::int AS n FROM item WHERE name <> $1`;
    await expect(
      cached.transaction(async (tx) => {
        await tx.query(broken, ["x"]).catch(() => {});
        await tx.query(fresh, ["x"]);
      }),
    ).rejects.toMatchObject({ code: "25P02" });
    expect(cachedStatementTexts(db)).not.toContain(broken);
    expect(cachedStatementTexts(db)).not.toContain(fresh);
    expect((await cached.query<{ n: number }>(fresh, ["x"])).rows[0]!.n).toBeGreaterThan(0);
    expect(await namesOf(fresh)).toHaveLength(1);
  });

  it("ends the cycle when a value cannot be serialized, prepared or not, and stays usable", async () => {
    const refusing = { 25: () => { throw new Error("not serializable"); } };
    const text = `SELECT count(*)::int AS n FROM item WHERE name = $1 OR name = 'taken'`;
    // A cycle left without its Sync keeps the implicit transaction its Parse began open: the next
    // statement would run in it, with that transaction's older now().
    const inFreshTransaction = async () => {
      await new Promise((r) => setTimeout(r, 100));
      return (await db.query<{ fresh: boolean }>(`SELECT statement_timestamp() - now() < interval '50 ms' AS fresh`)).rows[0]!.fresh;
    };
    for (let i = 0; i < 2; i++) {
      await expect(cached.query(text, ["x"], { serializers: refusing })).rejects.toThrow("not serializable");
      expect(await inFreshTransaction()).toBe(true);
    }
    expect((await cached.query(text, ["x"])).rows).toEqual([{ n: 1 }]);
    await cached.transaction(async (tx) => {
      await expect(tx.query(text, ["x"], { serializers: refusing })).rejects.toThrow("not serializable");
      expect((await tx.query(text, ["x"])).rows).toEqual([{ n: 1 }]);
    });
  });

  it("keeps a statement prepared inside a transaction that rolled back", async () => {
    const text = `SELECT name FROM item WHERE name = $1 AND n IS NULL`;
    await cached.transaction(async (tx) => {
      await tx.query(text, ["taken"]);
      await tx.rollback();
    });
    expect(await namesOf(text)).toHaveLength(1);
    expect((await cached.query(text, ["taken"])).rows).toEqual([{ name: "taken" }]);
    expect(await namesOf(text)).toHaveLength(1);
  });

  it("never runs inside another caller's open transaction", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO item (id, name) VALUES ($1, 'theirs, rolled back')`, [crypto.randomUUID()]);
      entered();
      await held;
      await t.rollback();
    });
    await inside;
    let done = false;
    const ours = cached.query(INSERT, [crypto.randomUUID(), "ours, after theirs", null, null, null, null, null]).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    release();
    await tx;
    await ours;
    expect((await db.query(`SELECT name FROM item WHERE name LIKE '%, %' ORDER BY name`)).rows).toEqual([{ name: "ours, after theirs" }]);
  });

  it("refuses a statement of a transaction that has ended", async () => {
    let kept!: Awaited<Parameters<Parameters<PGlite["transaction"]>[0]>[0]>;
    await cached.transaction(async (tx) => {
      kept = tx;
    });
    expect(kept.closed).toBe(true);
    await expect(kept.query(BY_NAME, ["taken"])).rejects.toThrow(/closed/);
  });

  it("prepares afresh a statement whose result no longer fits the schema", async () => {
    await db.exec(`CREATE TABLE shape (id int PRIMARY KEY, a text); INSERT INTO shape VALUES (1, 'x')`);
    const all = `SELECT * FROM shape WHERE id = $1`;
    expect((await cached.query(all, [1])).rows).toEqual([{ id: 1, a: "x" }]);
    await db.exec(`ALTER TABLE shape ADD COLUMN b int DEFAULT 7`);
    await expect(cached.query(all, [1])).rejects.toMatchObject({ code: "0A000" });
    expect((await cached.query(all, [1])).rows).toEqual([{ id: 1, a: "x", b: 7 }]);
    expect(await namesOf(all)).toHaveLength(1);
  });

  it("keeps at most its capacity, closing the least recently used in Postgres", async () => {
    const small = new PGlite();
    try {
      const session = pgliteWithStatementCache(small, 3);
      const texts = [1, 2, 3, 4, 5].map((i) => `SELECT ${i}::int + $1::int AS v`);
      for (const text of texts.slice(0, 3)) await session.query(text, [0]);
      await session.query(texts[0]!, [0]); // now the most recent: the second goes first
      await session.query(texts[3]!, [0]);
      await session.query(texts[4]!, [0]);
      expect(cachedStatementTexts(small)).toEqual([texts[0], texts[3], texts[4]]);
      await session.query(texts[0]!, [1]);
      expect((await prepared(small)).map((p) => p.statement).sort()).toEqual([texts[0], texts[3], texts[4]].sort());
    } finally {
      await small.close();
    }
  });

  it("serves Prisma's adapter: rows, column types, and errors Prisma can name", async () => {
    const adapter = await new PrismaPGlite(cached).connect();
    const args = [crypto.randomUUID(), "through the adapter", null, null, null, null, null];
    const argTypes = args.map(() => ({ scalarType: "unknown" as const, arity: "scalar" as const }));
    const result = await adapter.queryRaw({ sql: INSERT, args, argTypes });
    expect(result.columnNames).toEqual(["id", "name", "tags", "at", "doc", "n", "price"]);
    expect(result.rows[0]![1]).toBe("through the adapter");
    const tx = await adapter.startTransaction();
    await expect(tx.queryRaw({ sql: INSERT, args, argTypes })).rejects.toMatchObject({
      name: "DriverAdapterError",
      cause: { kind: "UniqueConstraintViolation" },
    });
    await tx.rollback();
    expect(db.isInTransaction()).toBe(false);
  });
});
