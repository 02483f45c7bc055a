// npm run bench: builds the production app once, starts it with the production entry (server/start.mjs) on the embedded
// default (PGlite, in-memory limiter) and, when DATABASE_URL / REDIS_URL are given, on Postgres and
// Redis too, and measures every hot path against a bare route handler of the same build, interleaved
// (baseline, workload, baseline, …) so each workload is compared with the baselines either side.
// Prints the JSON and a table; writes bench/results/latest.json. docs/benchmarks.md explains it.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { log } from "./log";
import { benchPids, gitInfo, machineInfo, OtherLoad } from "./machine";
import { measureBackend, type BackendReport } from "./measure";
import { benchOptions, FAIRNESS } from "./options";
import { profileWorkload } from "./profile-workload";
import { largeVsSmall, largeVsSmallTable } from "./large-ratios";
import { markdown, table } from "./report";
import { backends, removePgliteTemplate } from "./scratch-db";
import { buildApp, buildIsFresh, freePort } from "./server";
import { MEMBER_SEARCH_ID } from "./workloads";
import { round } from "./stats";
import { startMailSink } from "./mail-sink";

const opts = benchOptions(process.argv.slice(2));
const largeRows = (reports: BackendReport[]) => {
  const r = largeVsSmall(reports);
  return "rows" in r ? r.rows : [];
};
const { quick, settings, outFile } = opts;
const startedAt = new Date();

async function main(): Promise<void> {
  let build = { built: false, seconds: 0 };
  if (opts.noBuild) {
    if (!existsSync(".next/BUILD_ID")) throw new Error("--no-build: there is no production build in .next (run next build)");
    log("using the existing build in .next (--no-build)");
  } else if (quick && buildIsFresh()) {
    log("reusing the production build in .next (newer than every source file)");
  } else {
    build = { built: true, seconds: round(buildApp(log), 1) };
    log(`built in ${build.seconds} s`);
  }
  await startMailSink();
  let port = opts.port ?? (await freePort());
  if (opts.profile) return profileWorkload(opts.profile, port, opts);

  const loadAtStart = os.loadavg();
  const otherLoad = new OtherLoad(benchPids());
  const memberSearch = opts.selected.some((w) => w.id === MEMBER_SEARCH_ID);
  const list = await backends({ embeddedOnly: opts.embeddedOnly, profiling: false, largeScale: opts.largeScale, memberSearch });
  const reports: BackendReport[] = [];
  try {
    for (const backend of list) {
      reports.push(await measureBackend(backend, port, otherLoad, opts));
      port = opts.port !== undefined ? port + 1 : await freePort();
    }
  } finally {
    removePgliteTemplate();
    for (const b of list) await b.cleanup().catch((err) => log(`cleanup of ${b.name} failed: ${(err as Error).message}`));
  }
  const finishedAt = new Date();
  const otherCpu = otherLoad.percent();
  const result = {
    schema: "schoolhouse-bench/1",
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    wallSeconds: round((finishedAt.getTime() - startedAt.getTime()) / 1000, 1),
    mode: quick ? "quick" : "full",
    settings,
    build,
    machine: machineInfo(),
    git: gitInfo(),
    conditions: {
      otherProcessesCpuPercent: otherCpu,
      underLoad: otherCpu >= 10,
      loadAverageAtStart: loadAtStart.map((n) => round(n, 2)),
      loadAverageAtEnd: os.loadavg().map((n) => round(n, 2)),
    },
    backends: reports,
    largeVsSmall: opts.largeScale ? { scale: opts.largeScale, ...largeVsSmall(reports) } : null,
    summary: {
      missedTargets: [
        ...reports.flatMap((b) => b.workloads.filter((w) => w.targetMet === false).map((w) => `${b.name}/${w.id}`)),
        ...reports.filter((b) => b.fairness?.targetMet === false).map((b) => `${b.name}/${FAIRNESS}`),
        ...reports.flatMap((b) => (b.peer?.rows ?? []).filter((r) => r.targetMet === false).map((r) => `${b.name}/peer/${r.id}`)),
        ...reports.filter((b) => b.renewals?.floorWriteMet === false).map((b) => `${b.name}/renewals/floor-write`),
        ...reports.filter((b) => b.renewals?.flatCostMet === false).map((b) => `${b.name}/renewals/flat-cost`),
        ...(opts.largeScale ? largeRows(reports).filter((r) => r.targetMet === false).map((r) => `large/small/${r.id}`) : []),
      ],
      unavailable: [
        ...reports.flatMap((b) => b.workloads.filter((w) => w.status === "unavailable").map((w) => `${b.name}/${w.id}: ${w.reason}`)),
        ...reports.filter((b) => b.peer?.status === "unavailable").map((b) => `${b.name}/peer: ${b.peer!.reason}`),
        ...reports.flatMap((b) => (b.peer?.rows ?? []).filter((r) => r.status === "unavailable").map((r) => `${b.name}/peer/${r.id}: ${r.reason}`)),
        ...reports.filter((b) => b.renewals?.status === "unavailable").map((b) => `${b.name}/renewals: ${b.renewals!.reason}`),
      ],
      errors: [
        ...reports.flatMap((b) => b.workloads.filter((w) => w.status === "errors").map((w) => `${b.name}/${w.id}`)),
        ...reports.flatMap((b) => (b.peer?.rows ?? []).filter((r) => r.status === "errors").map((r) => `${b.name}/peer/${r.id}`)),
        ...reports.filter((b) => b.renewals?.status === "errors").map((b) => `${b.name}/renewals`),
      ],
    },
  };
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, JSON.stringify(result, null, 2) + "\n");
  const largeMd = result.largeVsSmall ? `${largeVsSmallTable(result.largeVsSmall)}\n` : "";
  writeFileSync(outFile.replace(/\.json$/, "") + ".md", markdown(result, reports) + largeMd);
  console.log(JSON.stringify(result, null, 2));
  console.log(table(reports));
  if (result.largeVsSmall) console.log(largeVsSmallTable(result.largeVsSmall));
  console.log(
    `\n${result.mode} run, ${result.wallSeconds} s; other processes used ${otherCpu}% of the machine's CPU while measuring${result.conditions.underLoad ? " (numbers taken under load)" : ""}; written to ${path.relative(process.cwd(), outFile)} (and .md)`,
  );
}

main().catch((err) => {
  console.error(`bench: ${(err as Error).message}`);
  process.exit(1);
});
