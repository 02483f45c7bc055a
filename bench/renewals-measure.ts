// The renewals scenario on one backend (issue 26's bench target): bench/renewals.ts in its own
// process on a scratch database of its own, at a tenth of the size and at the size, reported as
// the per-item rate's ratio to floor-write (measured in the same run) and the flat-cost ratio
// (per-item rate at the size ÷ at a tenth of it). docs/benchmarks.md, "Renewals".
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { round } from "./stats";
import { CHILD_DEADLINE_MS, scratchPglite, scratchPostgres, serverEnv, type Backend } from "./scratch-db";

export interface RenewalRun {
  count: number;
  seconds: number;
  itemsPerSec: number;
  /** CPU of the renewing process per item (the database's own CPU on Postgres is not in it). */
  cpuMsPerItem: number;
  generateSeconds: number;
  outcomes: Record<string, number>;
  /** Generated subscriptions renewed (next charge moved past now), and their succeeded payments. */
  renewed: number;
  succeededPayments: number;
}

/** Issue 26: the run at ≥ 0.5 of floor-write's rate, and the per-item rate within 20% from a tenth of the size to the size. */
export const RENEWALS_FLOOR_TARGET = 0.5;
export const RENEWALS_FLAT_TARGET = 0.8;

export interface RenewalsReport {
  status: "ok" | "errors" | "unavailable";
  reason?: string;
  runs: RenewalRun[];
  /** itemsPerSec at the size ÷ floor-write's req/s in this run (null: floor-write not measured). */
  ratioToFloorWrite: number | null;
  floorWriteRequestsPerSec: number | null;
  /** itemsPerSec at the size ÷ itemsPerSec at a tenth of it: 1 is flat (the check, target ≥ 0.8). */
  flatCostRatio: number | null;
  /**
   * cpuMsPerItem at a tenth of the size ÷ at the size: 1 is flat, read like flatCostRatio. Not a
   * target: the steadier reading of the same question on a shared machine, where a rate moves with
   * other processes' load and CPU per item hardly does (on Postgres, the renewing process's CPU only).
   */
  flatCpuRatio: number | null;
  targets: { floorWrite: number; flatCost: number };
  floorWriteMet: boolean | null;
  flatCostMet: boolean | null;
}

/** The two sizes of a run: a tenth of `size` and `size`. */
export const renewalSizes = (size: number): [number, number] => [Math.max(1, Math.round(size / 10)), size];

/** The report from the runs (pure: unit-tested). */
export function renewalsReport(runs: RenewalRun[], floorWriteRps: number | null): RenewalsReport {
  const [small, large] = runs;
  const wrong = runs.filter((r) => r.renewed !== r.count || r.succeededPayments !== r.count);
  const ratioToFloorWrite = large && floorWriteRps ? round(large.itemsPerSec / floorWriteRps) : null;
  const flatCostRatio = small && large ? round(large.itemsPerSec / small.itemsPerSec) : null;
  const flatCpuRatio = small && large && large.cpuMsPerItem > 0 ? round(small.cpuMsPerItem / large.cpuMsPerItem) : null;
  return {
    status: wrong.length ? "errors" : "ok",
    ...(wrong.length ? { reason: wrong.map((r) => `${r.count} due: ${r.renewed} renewed, ${r.succeededPayments} succeeded payments`).join("; ") } : {}),
    runs: runs.map((r) => ({ ...r, seconds: round(r.seconds, 2), itemsPerSec: round(r.itemsPerSec, 1), cpuMsPerItem: round(r.cpuMsPerItem), generateSeconds: round(r.generateSeconds, 1) })),
    ratioToFloorWrite,
    floorWriteRequestsPerSec: floorWriteRps === null ? null : round(floorWriteRps, 1),
    flatCostRatio,
    flatCpuRatio,
    targets: { floorWrite: RENEWALS_FLOOR_TARGET, flatCost: RENEWALS_FLAT_TARGET },
    floorWriteMet: ratioToFloorWrite === null ? null : ratioToFloorWrite >= RENEWALS_FLOOR_TARGET,
    flatCostMet: flatCostRatio === null ? null : flatCostRatio >= RENEWALS_FLAT_TARGET,
  };
}

export async function measureRenewals(o: { backend: Backend; size: number; floorWriteRps: number | null; log: (line: string) => void }): Promise<RenewalsReport> {
  const { backend } = o;
  const url = backend.database === "postgres" ? process.env.DATABASE_URL : undefined;
  const db = url ? await scratchPostgres(url) : scratchPglite();
  const dir = mkdtempSync(path.join(os.tmpdir(), "schoolhouse-bench-renewals-"));
  const out = path.join(dir, "renewals.json");
  try {
    const sizes = renewalSizes(o.size);
    o.log(`renewals: runs over ${sizes.join(" then ")} due subscriptions on a scratch ${backend.database} database…`);
    const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
    const r = spawnSync(process.execPath, [tsx, "bench/renewals.ts", out, sizes.join(",")], {
      // A renewal run asks nothing of the rate limiter: the in-memory store, whatever the backend's.
      env: { ...process.env, ...serverEnv({ ...backend, limiterStore: "memory", env: { ...db.env, REDIS_URL: "" } }) },
      encoding: "utf8",
      // A stuck run ends the scenario with its output, not the bench.
      timeout: CHILD_DEADLINE_MS,
      killSignal: "SIGKILL",
    });
    if (r.status !== 0) {
      const why = r.error ? `${r.error.message}: ` : "";
      return { ...renewalsReport([], null), status: "unavailable", reason: `the renewals run failed: ${why}${(r.stderr || r.stdout).slice(-600)}` };
    }
    const { runs } = JSON.parse(readFileSync(out, "utf8")) as { runs: RenewalRun[] };
    return renewalsReport(runs, o.floorWriteRps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await db.cleanup().catch(() => undefined);
  }
}
