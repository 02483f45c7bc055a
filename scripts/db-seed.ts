// npm run db:seed: migrates, then writes the demo schools (idempotent).
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { seedDemo } from "../lib/db/seed/seed";
import { env } from "../lib/env";
import { runCli } from "./cli";

await runCli(async () => {
  const e = env();
  const handle = dbHandle();
  try {
    await migrate({ driver: handle.driver });
    await seedDemo({
      prisma: handle.prisma,
      password: e.DEMO_PASSWORD,
      apiKey: e.DEMO_API_KEY,
      apiKeyNoPermissions: e.DEMO_API_KEY_NO_PERMISSIONS,
    });
    console.log("demo data seeded");
  } finally {
    await closeDbHandle(handle);
  }
});
