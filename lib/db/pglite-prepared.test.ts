import { messages, PGlite, protocol } from "@electric-sql/pglite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bindExecuteSync, pgliteQueryNamed, preparedStatementNames, readBackendMessages } from "./pglite-prepared";

// The statement shapes the hot paths use: every parameter type they bind (uuid, text, timestamptz,
// text[] that may be null, jsonb as text, bigint as text) and a data-modifying CTE.
const SETUP = `
  CREATE TABLE item (id uuid PRIMARY KEY, name text NOT NULL UNIQUE, tags text[], at timestamptz, doc jsonb, n bigint);
`;
const UPSERT = `
WITH ins AS (
  INSERT INTO item (id, name, tags, at, doc, n) VALUES ($1::uuid, $2, $3::text[], $4, $5::jsonb, $6::bigint)
  RETURNING id, name, tags, at, doc, n
)
SELECT ins.*, (SELECT count(*)::int FROM item) AS before FROM ins`;
const BY_NAME = `SELECT id, name, tags, at, doc, n FROM item WHERE name = $1`;

let db: PGlite;
// Starting PGlite takes seconds on a busy machine: more than the default 10 s hook timeout at times.
beforeAll(async () => {
  db = new PGlite();
  await db.exec(SETUP);
}, 120_000);
afterAll(async () => {
  await db.close();
});

const serverSideStatements = async () =>
  (await db.query<{ name: string }>(`SELECT name FROM pg_prepared_statements ORDER BY name`)).rows.map((r) => r.name);

describe("pgliteQueryNamed", () => {
  it("returns what query() returns for the same statement and parameters", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uuid(),
        fc.string({ maxLength: 40 }).filter((s) => !s.includes("\u0000")),
        fc.option(fc.array(fc.string({ maxLength: 8 }).filter((s) => !s.includes("\u0000")), { maxLength: 4 })),
        fc.option(fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true })),
        fc.option(fc.jsonValue().map((v) => JSON.stringify(v).replaceAll("\\u0000", ""))),
        fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String)),
        async (id, name, tags, at, doc, n) => {
          const unique = `${id}:${name}`;
          const [named] = await pgliteQueryNamed<Record<string, unknown>>(db, "upsert-item", UPSERT, [id, unique, tags, at, doc, n]);
          const viaQuery = (await db.query<Record<string, unknown>>(BY_NAME, [unique])).rows[0];
          const viaNamed = (await pgliteQueryNamed<Record<string, unknown>>(db, "item-by-name", BY_NAME, [unique]))[0];
          expect(viaNamed).toEqual(viaQuery);
          const { before: _before, ...inserted } = named!;
          expect(inserted).toEqual(viaQuery);
        },
      ),
      { seed: 20261124, numRuns: 60 },
    );
  });

  it("parses each statement once per instance and then only binds it", async () => {
    await pgliteQueryNamed(db, "item-by-name", BY_NAME, ["nobody"]);
    await pgliteQueryNamed(db, "item-by-name", BY_NAME, ["nobody either"]);
    expect(await serverSideStatements()).toEqual(["item-by-name", "upsert-item"]);
    expect(preparedStatementNames(db).sort()).toEqual(["item-by-name", "upsert-item"]);
  });

  it("answers no rows for a statement that returns none, every time", async () => {
    const rename = `UPDATE item SET n = n WHERE name = $1`;
    for (let i = 0; i < 3; i++) expect(await pgliteQueryNamed(db, "touch-item", rename, ["nobody"])).toEqual([]);
  });

  it("refuses a name already prepared with another text", async () => {
    await expect(pgliteQueryNamed(db, "item-by-name", `SELECT 1`, [])).rejects.toThrow(/another text/);
  });

  it("reports Postgres errors with their SQLSTATE and leaves the session usable", async () => {
    const id = crypto.randomUUID();
    await pgliteQueryNamed(db, "upsert-item", UPSERT, [id, "duplicate", null, null, null, null]);
    await expect(
      pgliteQueryNamed(db, "upsert-item", UPSERT, [crypto.randomUUID(), "duplicate", null, null, null, null]),
    ).rejects.toMatchObject({ code: "23505" });
    expect(db.isInTransaction()).toBe(false);
    expect((await db.query(`SELECT 1 AS one`)).rows).toEqual([{ one: 1 }]);
    expect(await pgliteQueryNamed(db, "item-by-name", BY_NAME, ["duplicate"])).toHaveLength(1);
  });

  it("is one statement in its own implicit transaction: a failure takes its writes with it, a success is committed", async () => {
    const id = crypto.randomUUID();
    // The CTE inserts, then the outer SELECT fails: Postgres rolls the whole statement back at Sync.
    const failing = `WITH ins AS (INSERT INTO item (id, name) VALUES ($1::uuid, $2) RETURNING id) SELECT 1 / (SELECT count(*)::int - count(*)::int FROM ins) AS boom`;
    await expect(pgliteQueryNamed(db, "insert-then-fail", failing, [id, "never kept"])).rejects.toMatchObject({ code: "22012" });
    expect(db.isInTransaction()).toBe(false);
    expect((await db.query(`SELECT 1 FROM item WHERE name = 'never kept'`)).rows).toEqual([]);
    await pgliteQueryNamed(db, "upsert-item", UPSERT, [crypto.randomUUID(), "kept", null, null, null, null]);
    expect(db.isInTransaction()).toBe(false);
    expect((await db.query(`SELECT name FROM item WHERE name = 'kept'`)).rows).toEqual([{ name: "kept" }]);
  });

  it("recovers from a statement that failed to prepare", async () => {
    await expect(pgliteQueryNamed(db, "broken", `SELECT nope FROM item`, [])).rejects.toMatchObject({ code: "42703" });
    expect(preparedStatementNames(db)).not.toContain("broken");
    expect(await pgliteQueryNamed(db, "broken", `SELECT count(*)::int AS n FROM item WHERE name = $1`, ["duplicate"])).toEqual([{ n: 1 }]);
  });

  it("takes over a statement of that name the session already holds", async () => {
    // As a Parse that succeeded before its Describe failed would leave it.
    await db.exec(`PREPARE "left-over" AS SELECT 'stale'::text AS v`);
    expect(await pgliteQueryNamed(db, "left-over", `SELECT 'fresh'::text AS v`, [])).toEqual([{ v: "fresh" }]);
  });

  it("never runs inside another caller's open transaction", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO item (id, name) VALUES ($1, 'rolled back')`, [crypto.randomUUID()]);
      entered();
      await held;
      await t.rollback();
    });
    await inside;
    let done = false;
    const named = pgliteQueryNamed(db, "upsert-item", UPSERT, [crypto.randomUUID(), "after the transaction", null, null, null, null]).then(
      (rows) => {
        done = true;
        return rows;
      },
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    release();
    await tx;
    await named;
    // Had the named statement joined the other transaction, the rollback would have taken its row too.
    expect((await db.query(`SELECT name FROM item WHERE name IN ('rolled back', 'after the transaction')`)).rows).toEqual([
      { name: "after the transaction" },
    ]);
  });

  it("keeps statements per instance", async () => {
    const other = new PGlite();
    try {
      await other.exec(SETUP);
      expect(preparedStatementNames(other)).toEqual([]);
      await pgliteQueryNamed(other, "item-by-name", BY_NAME, ["x"]);
      expect(preparedStatementNames(other)).toEqual(["item-by-name"]);
    } finally {
      await other.close();
    }
  });
});

describe("readBackendMessages (the named path's reader of Postgres's answer)", () => {
  const ROWS = `SELECT $1::text AS t, NULL::int AS nothing, n, repeat($1::text, n % 7) AS r FROM generate_series(1, $2::int) AS n`;

  it("reads rows as PGlite's own parser does: any text, nulls, empty strings, many rows", async () => {
    await fc.assert(
      fc.asyncProperty(
        // Every code point but NUL (which text cannot hold): one to four bytes of UTF-8 each.
        fc.string({ unit: fc.integer({ min: 1, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)), maxLength: 30 }),
        fc.integer({ min: 0, max: 300 }),
        async (text, rows) => {
          const named = await pgliteQueryNamed(db, "rows-of-text", ROWS, [text, rows]);
          expect(named).toEqual((await db.query(ROWS, [text, rows])).rows);
        },
      ),
      { seed: 20261128, numRuns: 60 },
    );
  });

  it("reads an answer Postgres writes in more than one piece", async () => {
    // 2,000 rows of ~3 KB: several MB, far past one write of the wasm socket.
    const big = await pgliteQueryNamed<{ r: string }>(db, "rows-of-text", ROWS, ["é漢😀", 2000]);
    expect(big).toEqual((await db.query(ROWS, ["é漢😀", 2000])).rows);
  });

  it("throws the first error Postgres reported, as PGlite's DatabaseError, and only that", async () => {
    const failing = `SELECT 1 / (n - 3) AS v FROM generate_series(1, $1::int) AS n`;
    const err = await pgliteQueryNamed(db, "divide-until-zero", failing, [5]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(messages.DatabaseError);
    expect(err).toMatchObject({ code: "22012", message: "division by zero" });
    expect(await pgliteQueryNamed(db, "divide-until-zero", failing, [2])).toEqual([{ v: 0 }, { v: -1 }]);
  });

  it("makes the objects PGlite's parser makes for the messages that end an execution", () => {
    const u32 = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      return b;
    };
    const message = (code: number, body: Buffer) => Buffer.concat([Buffer.from([code]), u32(body.length + 4), body]);
    const ending = fc.oneof(
      fc.constant(message(0x32, Buffer.alloc(0))), // BindComplete
      fc.constant(message(0x6e, Buffer.alloc(0))), // NoData
      fc.string({ maxLength: 20 }).filter((t) => !t.includes("\u0000")).map((tag) => message(0x43, Buffer.from(tag + "\u0000"))), // CommandComplete
      fc.constantFrom("I", "T", "E").map((status) => message(0x5a, Buffer.from(status))), // ReadyForQuery
      fc.constant(message(0x33, Buffer.alloc(0))), // CloseComplete: left to the parser
      fc.string({ maxLength: 8 }).map((v) => { // DataRow of one text field
        const bytes = Buffer.from(v);
        return message(0x44, Buffer.concat([Buffer.from([0, 1]), u32(bytes.length), bytes]));
      }),
    );
    fc.assert(
      fc.property(fc.array(ending, { maxLength: 8 }), (parts) => {
        const answer = Buffer.concat(parts);
        const ours: unknown[] = [];
        readBackendMessages(answer, ours as never[]);
        const theirs: unknown[] = [];
        new protocol.Parser().parse(answer, (m) => theirs.push(m));
        expect(ours).toStrictEqual(theirs);
      }),
      { seed: 20261129, numRuns: 300 },
    );
  });

  it("makes rows as query() does: a column named __proto__, repeated names, types without a parser, nulls", async () => {
    const odd = `SELECT 1 AS "__proto__", 'a' AS x, 'b' AS x, point(1, 2) AS p, NULL::timestamptz AS never, now() AS at, '{1,2}'::int[] AS list`;
    const named = await pgliteQueryNamed<Record<string, unknown>>(db, "odd-columns", odd, []);
    const viaQuery = (await db.query<Record<string, unknown>>(odd)).rows;
    expect(named).toHaveLength(1);
    expect(Object.getPrototypeOf(named[0])).toBe(Object.prototype);
    expect(Object.keys(named[0]!)).toEqual(Object.keys(viaQuery[0]!));
    expect(Object.getOwnPropertyDescriptor(named[0], "__proto__")?.value).toBe(1);
    const { at: _at, ...rest } = named[0]!;
    const { at: _atQ, ...restQ } = viaQuery[0]!;
    expect(rest).toEqual(restQ);
    expect(named[0]!.at).toBeInstanceOf(Date);
  });

  it("refuses an answer cut short instead of reading past it", () => {
    const row = Buffer.from([0x44, 0, 0, 0, 12, 0, 1, 0, 0, 0, 2, 0x68, 0x69]);
    const into: unknown[] = [];
    readBackendMessages(row, into as never[]);
    expect(into).toMatchObject([{ name: "dataRow", fields: ["hi"] }]);
    expect(() => readBackendMessages(row.subarray(0, 10), [])).toThrow(/past the answer/);
  });
});

describe("bindExecuteSync (the named path's Bind, Execute and Sync)", () => {
  const ECHO = `SELECT $1::text AS a, $2::text AS b, $3::text AS c, $4::text AS d`;

  it("binds any text and nulls as query() does", async () => {
    const value = fc.option(
      fc.string({ unit: fc.integer({ min: 1, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff).map((c) => String.fromCodePoint(c)), maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(value, value, value, value, async (...values) => {
        expect(await pgliteQueryNamed(db, "echo-four", ECHO, values)).toEqual((await db.query(ECHO, values)).rows);
      }),
      { seed: 20261129, numRuns: 80 },
    );
  });

  it("writes a lone surrogate as U+FFFD, as any UTF-8 encoder does, and keeps the message well formed", async () => {
    expect(await pgliteQueryNamed(db, "echo-four", ECHO, ["a\ud800b", "\udc00", null, "x"])).toEqual([{ a: "a\ufffdb", b: "\ufffd", c: null, d: "x" }]);
  });

  it("lays out the three messages as the protocol defines them", () => {
    const out = bindExecuteSync("s1", ["é", null]);
    // Bind: code, length, portal "", statement "s1", no format codes, 2 values, no result format codes.
    const bindLength = out.readInt32BE(1);
    expect(String.fromCharCode(out[0]!)).toBe("B");
    const bind = out.subarray(5, 1 + bindLength);
    expect([...bind]).toEqual([0, 0x73, 0x31, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0xc3, 0xa9, 0xff, 0xff, 0xff, 0xff, 0, 0]);
    // Execute the unnamed portal for every row, then Sync.
    expect([...out.subarray(1 + bindLength)]).toEqual([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0x53, 0, 0, 0, 4]);
  });
});
