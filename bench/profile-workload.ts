// npm run bench -- --profile <id>: a CPU profile of the server under one workload, instead of a
// benchmark, summarised by area (profile.ts).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runSegment } from "./load";
import { log } from "./log";
import type { BenchOptions } from "./options";
import { summariseProfile } from "./profile";
import { backends, prepareBackendDatabase, removePgliteTemplate, serverEnv } from "./scratch-db";
import { BenchServer, benchOrigin } from "./server";
import { round } from "./stats";
import { baseline, FLOORS, WORKLOADS } from "./workloads";

export async function profileWorkload(id: string, port: number, opts: BenchOptions): Promise<void> {
  const { settings } = opts;
  const [backend] = await backends({ embeddedOnly: true, profiling: true });
  const dir = path.resolve("bench/results");
  const profDir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-prof-"));
  try {
    const creds = prepareBackendDatabase(backend!, settings.connections * 2, settings.connections * 8 + 16, benchOrigin(port));
    const server = await BenchServer.start({ port, env: serverEnv(backend!), cpuProfileDir: profDir });
    const workload = id === "baseline" ? baseline : [...FLOORS, ...WORKLOADS].find((w) => w.id === id)!;
    let loadWindowUs: [number, number] | undefined;
    try {
      const ctx = { origin: server.origin, creds, runId: Date.now().toString(36), connections: settings.connections };
      const p = await workload.prepare(ctx);
      if ("unavailable" in p) throw new Error(`${id} is unavailable: ${p.unavailable}`);
      await runSegment({ origin: server.origin, spec: p.spec, connections: settings.connections, durationSec: Math.max(1, settings.warmupSeconds) });
      log(`profiling ${id} for ${settings.segmentSeconds * 3} s…`);
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      const r = await runSegment({ origin: server.origin, spec: p.spec, connections: settings.connections, durationSec: settings.segmentSeconds * 3 });
      loadWindowUs = [fromUs, Number(process.hrtime.bigint() / 1000n)];
      log(`${id}: ${round(r.requestsPerSec, 1)} req/s under the profiler`);
    } finally {
      await server.stop();
    }
    const files = readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile"));
    if (!files.length) throw new Error("the server wrote no .cpuprofile (did it exit gracefully?)");
    mkdirSync(dir, { recursive: true });
    const target = path.join(dir, `${id}.cpuprofile`);
    // The largest profile is the server's; `next start` may leave small ones from helper processes.
    const biggest = files
      .map((f) => path.join(profDir, f))
      .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0]!;
    renameSync(biggest, target);
    const summary = summariseProfile(target, { loadWindowUs });
    writeFileSync(path.join(dir, `${id}.profile.json`), JSON.stringify(summary, null, 2) + "\n");
    console.log(`CPU profile of the server under ${id}: ${path.relative(process.cwd(), target)} (open in Chrome DevTools › Performance)`);
    console.log(`\nself time by group: ${Object.entries(summary.groups).map(([k, v]) => `${k} ${v}%`).join(", ")}`);
    console.log(`\nself time by area (${summary.totalMs} ms sampled, ${summary.window === "load" ? "while the load ran" : "whole process: no samples matched the load's time window"}):`);
    for (const a of summary.byArea) console.log(`  ${String(a.percent).padStart(5)}%  ${a.area}`);
    console.log("\nhottest functions (self time):");
    for (const f of summary.topFunctions) console.log(`  ${String(f.percent).padStart(5)}%  ${f.name}  ${f.where}`);
  } finally {
    rmSync(profDir, { recursive: true, force: true });
    removePgliteTemplate();
    await backend!.cleanup();
  }
}