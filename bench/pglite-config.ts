// What PGlite's configuration costs per write and per read (issue 30, item 4), in process, on a data
// directory on disk as `npm start` opens it (docs/benchmarks.md, "The embedded database").
//
//   npx tsx bench/pglite-config.ts [--ops 300] [--rounds 3] [--only current,relaxed,…]
//
// One migrated, demo-seeded directory is made once; every variant then opens its own copy of it
// (so each starts from the same pages and the same empty WAL), warms up, and runs each operation
// `ops` times, one at a time (a request's own cost, not throughput). Variants run in a rotated order
// each round; CPU time from process.cpuUsage() (which, unlike wall time, other load on the machine
// barely moves) and wall time, per operation; the report gives each variant's ratio to `current`.
//
// Operations (the statements of the bench's floors, lib/db/raw.ts's named path and the hot writes):
//   write-tx     floor-write: BEGIN, insert a user, insert a subscription, COMMIT (pglite.transaction)
//   write-named  one INSERT as a named statement (pgliteQueryNamed), autocommit: a refresh's shape
//   read         floor-read: one select by a unique index through pglite.query() (unnamed: parsed each time)
//   read-named   the same select as a named statement (pgliteQueryNamed)
// and `--prepared` compares the named path's implementations on `current`: `tx` (inside
// pglite.transaction(), which sends BEGIN and COMMIT around it: the implementation before issue 30),
// against the one in lib/db/pglite-prepared.ts.
import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse, PGlite, protocol, type PGliteOptions } from "@electric-sql/pglite";

const { values: opts } = parseArgs({
  options: {
    ops: { type: "string", default: "300" },
    rounds: { type: "string", default: "3" },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const OPS = Number(opts.ops);
const ROUNDS = Number(opts.rounds);

Object.assign(process.env, { NODE_ENV: "production", PGLITE_DATA_DIR: "memory://", DATABASE_URL: "" });
const { createDbHandle, closeDbHandle } = await import("../lib/db/client");
const { createPgliteDriver, PGLITE_START_PARAMS } = await import("../lib/db/driver");
const { migrate } = await import("../lib/db/migrator");
const { seedDemo } = await import("../lib/startup/seed/seed");
const { randomDemoCredentials } = await import("../lib/startup/seed/demo-credentials");
const { pgliteQueryNamed } = await import("../lib/db/pglite-prepared");
const { floorRead, floorWrite, FLOOR_COURSE_SLUG, FLOOR_SCHOOL_ID } = await import("./floors");

interface Variant {
  id: string;
  what: string;
  options: () => PGliteOptions;
}

const params = (...extra: string[]) => [...PGLITE_START_PARAMS, ...extra.flatMap((e) => ["-c", e])];
const VARIANTS: Variant[] = [
  { id: "current", what: "lib/db/driver.ts as shipped: PGlite's defaults (fsync off), shared_buffers=8MB, default_statistics_target=30", options: () => ({ startParams: params() }) },
  { id: "relaxed", what: "relaxedDurability: true (do not await the file system sync after a query)", options: () => ({ startParams: params(), relaxedDurability: true }) },
  { id: "sync-commit-off", what: "synchronous_commit=off (COMMIT returns before its WAL is written)", options: () => ({ startParams: params("synchronous_commit=off") }) },
  { id: "fpw-off", what: "full_page_writes=off", options: () => ({ startParams: params("full_page_writes=off") }) },
  { id: "wal-minimal", what: "wal_level=minimal (max_wal_senders=0)", options: () => ({ startParams: params("wal_level=minimal", "max_wal_senders=0") }) },
  { id: "buffers-16MB", what: "shared_buffers=16MB", options: () => ({ startParams: params("shared_buffers=16MB") }) },
  { id: "buffers-32MB", what: "shared_buffers=32MB (shipped until the memory target)", options: () => ({ startParams: params("shared_buffers=32MB") }) },
  { id: "buffers-128MB", what: "shared_buffers=128MB (Postgres's default)", options: () => ({ startParams: params("shared_buffers=128MB") }) },
  { id: "wal-buffers-16MB", what: "wal_buffers=16MB (default: 1/32 of shared_buffers, 256kB)", options: () => ({ startParams: params("wal_buffers=16MB") }) },
  { id: "fsync-on", what: "fsync=on (PGlite passes -F; Emscripten's NODEFS has no fsync, so it reaches no disk)", options: () => ({ startParams: params("fsync=on") }) },
];
const selected = opts.only ? VARIANTS.filter((v) => opts.only!.split(",").includes(v.id)) : VARIANTS;

const INSERT_USER_NAMED = `INSERT INTO "User" ("id", "email", "name", "emailVerified", "createdAt", "updatedAt") VALUES ($1::uuid, $2, $3, false, $4, $4)`;
const SELECT_COURSE = `SELECT "id", "title" FROM "Course" WHERE "schoolId" = $1::uuid AND "slug" = $2`;

/** The named path as it was before issue 30: inside pglite.transaction() (BEGIN … COMMIT), one execProtocol call per message. */
async function namedInTransaction<T>(pglite: PGlite, name: string, text: string, values: unknown[], prepared: Set<string>): Promise<T[]> {
  const { serialize } = protocol;
  return pglite.transaction(() =>
    pglite.runExclusive(async () => {
      const messages: Awaited<ReturnType<PGlite["execProtocol"]>>["messages"] = [];
      const send = async (m: Uint8Array) => messages.push(...(await pglite.execProtocol(m, { syncToFs: false })).messages);
      try {
        if (!prepared.has(name)) {
          await send(serialize.parse({ name, text, types: [] }));
          prepared.add(name);
        }
        await send(serialize.bind({ statement: name, values: values.map((v) => (v instanceof Date ? v.toISOString() : v === null ? null : String(v))) }));
        await send(serialize.describe({ type: "P" }));
        await send(serialize.execute({}));
      } finally {
        await send(serialize.sync());
      }
      return (parse.parseResults(messages, pglite.parsers)[0]?.rows ?? []) as T[];
    }),
  );
}

type Op = (pglite: PGlite, driver: Parameters<typeof floorWrite>[0]) => Promise<unknown>;
const txPrepared = new WeakMap<PGlite, Set<string>>();
const OPS_BY_ID: Record<string, Op> = {
  "write-tx": (_p, driver) => floorWrite(driver),
  "write-named": (p) => pgliteQueryNamed(p, "cfg-insert-user", INSERT_USER_NAMED, [randomUUID(), `cfg-${randomUUID()}@bench.schoolhouse.test`, "Cfg", new Date()]),
  read: (_p, driver) => floorRead(driver),
  "read-named": (p) => pgliteQueryNamed(p, "cfg-course", SELECT_COURSE, [FLOOR_SCHOOL_ID, FLOOR_COURSE_SLUG]),
  "write-named-tx": (p) => {
    const set = txPrepared.get(p) ?? new Set<string>();
    txPrepared.set(p, set);
    return namedInTransaction(p, "cfg-insert-user-tx", INSERT_USER_NAMED, [randomUUID(), `cfg-${randomUUID()}@bench.schoolhouse.test`, "Cfg", new Date()], set);
  },
  "read-named-tx": (p) => {
    const set = txPrepared.get(p) ?? new Set<string>();
    txPrepared.set(p, set);
    return namedInTransaction(p, "cfg-course-tx", SELECT_COURSE, [FLOOR_SCHOOL_ID, FLOOR_COURSE_SLUG], set);
  },
};
const OP_IDS = ["write-tx", "write-named", "write-named-tx", "read", "read-named", "read-named-tx"];

const root = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-pglite-config-"));
const template = path.join(root, "template");
console.error(`preparing ${template} (migrate, demo seed)…`);
{
  const handle = createDbHandle(createPgliteDriver(template));
  await migrate({ driver: handle.driver });
  await seedDemo({ prisma: handle.prisma, credentials: randomDemoCredentials() });
  await closeDbHandle(handle);
  rmSync(`${template}.lock`, { force: true });
}

type Sample = { cpu: number; wall: number };
const results = new Map<string, Map<string, Sample[]>>(selected.map((v) => [v.id, new Map(OP_IDS.map((o) => [o, []]))]));
const walBytes = new Map<string, number[]>(selected.map((v) => [v.id, []]));
const walDirMB = new Map<string, number[]>(selected.map((v) => [v.id, []]));
/** Size of the files in pg_wal: PGlite runs Postgres single-user, where no checkpoint recycles them until close. */
const walDirSize = (dir: string) =>
  readdirSync(path.join(dir, "pg_wal"), { withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(path.join(dir, "pg_wal", e.name)).size, 0) / 2 ** 20;

try {
  // Round 0 is a warm-up of the whole process (JIT, the wasm module's compiled code), not reported:
  // without it the first variant measured pays for everyone's warm-up.
  for (let round = -1; round < ROUNDS; round++) {
    const order = round < 0 ? [selected[0]!] : selected.map((_, i) => selected[(i + round) % selected.length]!);
    for (const variant of order) {
      const dir = path.join(root, `${variant.id}-${round}`);
      cpSync(template, dir, { recursive: true });
      const pglite = new PGlite(dir, variant.options());
      await pglite.waitReady;
      const driver = { kind: "pglite" as const, pglite, dataDir: dir };
      const lsn = async () => (await pglite.query<{ l: string }>(`SELECT pg_current_wal_insert_lsn()::text AS l`)).rows[0]!.l;
      const lsnBytes = (l: string) => {
        const [hi, lo] = l.split("/");
        return parseInt(hi!, 16) * 2 ** 32 + parseInt(lo!, 16);
      };
      for (const op of OP_IDS) for (let i = 0; i < 50; i++) await OPS_BY_ID[op]!(pglite, driver); // warm-up
      for (const op of OP_IDS) {
        const before = lsnBytes(await lsn());
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        for (let i = 0; i < OPS; i++) await OPS_BY_ID[op]!(pglite, driver);
        const wall = (performance.now() - t0) / OPS;
        const c = process.cpuUsage(cpu0);
        if (round < 0) continue;
        results.get(variant.id)!.get(op)!.push({ cpu: (c.user + c.system) / 1000 / OPS, wall });
        if (op === "write-tx") walBytes.get(variant.id)!.push((lsnBytes(await lsn()) - before) / OPS);
      }
      if (round >= 0) walDirMB.get(variant.id)!.push(walDirSize(dir));
      await pglite.close();
      if (!opts.keep) rmSync(dir, { recursive: true, force: true });
    }
    console.error(round < 0 ? "warm-up round done" : `round ${round + 1}/${ROUNDS} done`);
  }
} finally {
  if (!opts.keep) rmSync(root, { recursive: true, force: true });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const base = results.get("current");
console.log(`PGlite configuration, ${OPS} operations × ${ROUNDS} rounds, one at a time; ms per operation (CPU / wall), ×current = this CPU ÷ current's CPU`);
console.log(`| variant | ${OP_IDS.map((o) => `${o} CPU ms (×current)`).join(" | ")} | WAL bytes per write-tx | pg_wal MB at the end |`);
console.log(`|---|${OP_IDS.map(() => "---:").join("|")}|---:|---:|`);
for (const v of selected) {
  const cells = OP_IDS.map((o) => {
    const cpu = mean(results.get(v.id)!.get(o)!.map((s) => s.cpu));
    const ref = base ? mean(base.get(o)!.map((s) => s.cpu)) : cpu;
    return `${cpu.toFixed(3)} (${(cpu / ref).toFixed(2)})`;
  });
  console.log(`| ${v.id} | ${cells.join(" | ")} | ${Math.round(mean(walBytes.get(v.id)!))} | ${mean(walDirMB.get(v.id)!).toFixed(0)} |`);
}
console.log("\nwall ms per operation (includes waiting for the CPU on a loaded machine):");
for (const v of selected) {
  console.log(`  ${v.id.padEnd(18)} ${OP_IDS.map((o) => `${o} ${mean(results.get(v.id)!.get(o)!.map((s) => s.wall)).toFixed(3)}`).join("  ")}`);
}
for (const v of selected) console.log(`  ${v.id}: ${v.what}`);
