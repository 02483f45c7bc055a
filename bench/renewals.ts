// The bench's renewals scenario (issue 26), in its own process on its own scratch database (PGlite
// allows one process per directory, and the bench server's worker would renew the set on start):
// migrate and seed, then for each size a due set generated with SQL (bench/renewal-dataset.ts) and
// one renewal run over it (renewDueSubscriptions: what the cron route and the in-process worker
// run, with the test provider), timed. Every item must renew with a succeeded payment.
//
// Usage: tsx bench/renewals.ts <out.json> <size>[,<size>…]   (the database from DATABASE_URL / PGLITE_DATA_DIR)
import { writeFileSync } from "node:fs";
import { closeDbHandle, dbHandle } from "../lib/db/client";
import { migrate } from "../lib/db/migrator";
import { renewDueSubscriptions } from "../lib/billing/renew-due";
import { DEMO_IDS } from "../lib/startup/seed/demo-data";
import { randomDemoCredentials } from "../lib/startup/seed/demo-credentials";
import { seedDemo } from "../lib/startup/seed/seed";
import { runCli } from "../scripts/cli";
import { dueRenewalStatements } from "./renewal-dataset";
import type { RenewalRun } from "./renewals-measure";

const [out, sizesArg] = process.argv.slice(2);
const sizes = (sizesArg ?? "").split(",").map(Number).filter((n) => Number.isInteger(n) && n > 0);
if (!out || !sizes.length) {
  console.error("usage: renewals.ts <out.json> <size>[,<size>…]");
  process.exit(2);
}

await runCli(async () => {
  const handle = dbHandle();
  try {
    await migrate({ driver: handle.driver });
    await seedDemo({ prisma: handle.prisma, credentials: randomDemoCredentials() });
    const runs: RenewalRun[] = [];
    for (const [k, count] of sizes.entries()) {
      const tag = `s${k}n${count}`;
      const generated = Date.now();
      for (const sql of dueRenewalStatements({ schoolId: DEMO_IDS.school, planId: DEMO_IDS.plans.monthly, count, tag })) await handle.prisma.$executeRawUnsafe(sql);
      const generateSeconds = (Date.now() - generated) / 1000;
      const started = performance.now();
      const cpu0 = process.cpuUsage();
      const result = await renewDueSubscriptions({ now: new Date() });
      const cpu = process.cpuUsage(cpu0);
      const seconds = (performance.now() - started) / 1000;
      // Correctness: each generated subscription renewed once, with one succeeded payment for the period.
      const [check] = await handle.prisma.$queryRawUnsafe<{ renewed: number; payments: number }[]>(
        `SELECT count(*) FILTER (WHERE s."nextChargeDate" > now())::int AS "renewed",
                (SELECT count(*)::int FROM "Payment" p JOIN "Subscription" x ON x."id" = p."subscriptionId"
                  WHERE x."id" IN (SELECT md5('renew-${tag}-sub-' || i)::uuid FROM generate_series(0, ${count - 1}) AS i) AND p."state" = 'succeeded') AS "payments"
           FROM "Subscription" s WHERE s."id" IN (SELECT md5('renew-${tag}-sub-' || i)::uuid FROM generate_series(0, ${count - 1}) AS i)`,
      );
      runs.push({
        count,
        seconds,
        itemsPerSec: count / seconds,
        cpuMsPerItem: (cpu.user + cpu.system) / 1000 / count,
        generateSeconds,
        outcomes: result.outcomes,
        renewed: check!.renewed,
        succeededPayments: check!.payments,
      });
      console.log(`renewals: ${count} due renewed in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(1)}/s; generated in ${generateSeconds.toFixed(1)} s)`);
    }
    writeFileSync(out, JSON.stringify({ database: handle.driver.kind === "pg" ? "postgres" : "pglite", runs }));
  } finally {
    await closeDbHandle(handle);
  }
});
