// npm run db:seed: migrates, then writes the demo schools (idempotent).
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { seedDemoForEnv } from "../lib/startup/seed/seed-for-env";
import { env } from "../lib/env";
import { runCli } from "./cli";

await runCli(async () => {
  const e = env();
  const handle = dbHandle();
  try {
    await migrate({ driver: handle.driver });
    await seedDemoForEnv({ prisma: handle.prisma, env: e, log: (line) => console.log(line) });
    console.log("demo data seeded");
  } finally {
    await closeDbHandle(handle);
  }
});
