// npm run db:migrate: applies pending SQL migrations to DATABASE_URL or the embedded database.
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { runCli } from "./cli";

await runCli(async () => {
  const handle = dbHandle();
  try {
    const { applied, modified } = await migrate({ driver: handle.driver });
    console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
    for (const m of modified) console.warn(`warning: ${m} was modified after it was applied`);
  } finally {
    await closeDbHandle(handle);
  }
});
