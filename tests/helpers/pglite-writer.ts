// A process that opens an embedded database directory with the server's settings (lib/db/driver.ts)
// and commits rows as fast as it can, the three ways the server writes: a named statement
// (lib/db/pglite-prepared.ts: the refresh grant, createSubscription for a new member), a
// transaction (what Prisma's interactive transactions and the floors run) and a plain query
// (Prisma's other statements). After each commit has returned it prints `ok <id>`: the moment a
// server would answer its client. lib/db/crash-durability.test.ts kills it with SIGKILL mid-stream.
//
//   node --import tsx tests/helpers/pglite-writer.ts <dir> [-c name=value …]   (extra settings: the test's control)
import { createPgliteDriver, PGLITE_START_PARAMS } from "@/lib/db/driver";
import { pgliteQueryNamed } from "@/lib/db/pglite-prepared";

const [dir, ...extra] = process.argv.slice(2);
const driver = createPgliteDriver(dir!, extra.length ? { startParams: [...PGLITE_START_PARAMS, ...extra] } : undefined);
if (driver.kind !== "pglite") throw new Error("expected PGlite");
const { pglite } = driver;
await pglite.exec(`CREATE TABLE IF NOT EXISTS committed (id text PRIMARY KEY, how text NOT NULL, pad text NOT NULL)`);
process.stdout.write(`ready ${process.pid}\n`);

// Some bulk per row, as real rows have (a token row with its hashes is a few hundred bytes).
const pad = "x".repeat(300);
let n = 0;
async function writer(lane: number): Promise<never> {
  for (;;) {
    const id = `${lane}-${n++}`;
    switch (n % 3) {
      case 0:
        await pgliteQueryNamed(pglite, "insert-committed", `INSERT INTO committed (id, how, pad) VALUES ($1, 'named', $2)`, [id, pad]);
        break;
      case 1:
        await pglite.transaction(async (tx) => {
          await tx.query(`INSERT INTO committed (id, how, pad) VALUES ($1, 'transaction', $2)`, [id, pad]);
          await tx.query(`INSERT INTO committed (id, how, pad) VALUES ($1, 'transaction', $2)`, [`${id}-b`, pad]);
        });
        break;
      default:
        await pglite.query(`INSERT INTO committed (id, how, pad) VALUES ($1, 'query', $2)`, [id, pad]);
    }
    process.stdout.write(`ok ${id}\n`);
  }
}
await Promise.all([0, 1, 2, 3].map(writer));
