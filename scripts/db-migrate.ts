// npm run db:migrate: applies pending SQL migrations to DIRECT_DATABASE_URL (or DATABASE_URL_UNPOOLED,
// or DATABASE_URL), or to the embedded database. The deploy step of a production release.
import { closeDbHandle, createDbHandle, dbHandle } from "../lib/db/client";
import { createPgDriver } from "../lib/db/driver";
import { migrate } from "../lib/db/migrator";
import { env } from "../lib/env";
import { runCli } from "./cli";

await runCli(async () => {
  const e = env();
  const direct = e.DIRECT_DATABASE_URL ?? e.DATABASE_URL_UNPOOLED;
  const handle = direct ? createDbHandle(createPgDriver(direct, { max: 1 })) : dbHandle();
  try {
    const { applied, modified } = await migrate({ driver: handle.driver });
    console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
    for (const m of modified) console.warn(`warning: ${m} was modified after it was applied`);
  } finally {
    await closeDbHandle(handle);
  }
});
