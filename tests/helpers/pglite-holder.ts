// A process that opens an embedded database directory as `npm start` does, writes one row, says
// "ready" and holds the database until it is killed (lib/db/driver.test.ts kills it with SIGKILL).
import { createPgliteDriver } from "@/lib/db/driver";

const [dir, value] = process.argv.slice(2);
const driver = createPgliteDriver(dir!);
if (driver.kind !== "pglite") throw new Error("expected PGlite");
await driver.pglite.exec("CREATE TABLE IF NOT EXISTS crash_proof (value text)");
await driver.pglite.query("INSERT INTO crash_proof VALUES ($1)", [value]);
process.stdout.write(`ready ${process.pid}\n`);
setInterval(() => {}, 60_000);
