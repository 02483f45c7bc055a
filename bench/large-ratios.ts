// Large/small: each workload on the large-school dataset against the same workload on the demo seed
// (docs/benchmarks.md, "Flat cost as data grows"). Throughput is compared as measured and, to take
// out the machine's drift between the two backends' runs, as the ratio of their ratios to their
// own adjacent bare-route baselines; the target reads the latter.
import type { BackendReport } from "./measure";
import { LARGE_PREFIX } from "./scratch-db";
import { round } from "./stats";

/** Every workload keeps this share of its small-data throughput … */
export const LARGE_THROUGHPUT_TARGET = 0.8;
/** … and its p99 grows at most this much. */
export const LARGE_P99_LIMIT = 2;

export interface LargeRatioRow {
  id: string;
  /** Requests per second, large ÷ small, as measured. */
  throughput: number;
  /** (large ÷ its baselines) ÷ (small ÷ its baselines). */
  throughputVsBaseline: number;
  /** p99 latency, large ÷ small. */
  p99: number;
  /** Null for the floors: raw-driver references on fixed rows, shown for the machine's noise. */
  targetMet: boolean | null;
}

/** The large backend's rows against the small backend of the same database and limiter store. */
export function largeVsSmall(reports: BackendReport[]): { small: string; large: string; rows: LargeRatioRow[] } | { unavailable: string } {
  const large = reports.find((b) => b.name.startsWith(LARGE_PREFIX));
  const small = large && reports.find((b) => b.name === large.name.slice(LARGE_PREFIX.length));
  if (!large || !small) return { unavailable: "no large-dataset backend with a small counterpart in this run" };
  const rows: LargeRatioRow[] = [];
  for (const l of large.workloads) {
    const s = small.workloads.find((w) => w.id === l.id);
    if (!s?.measurement || !l.measurement || !s.ratios || !l.ratios || s.status !== "ok" || l.status !== "ok") continue;
    const throughputVsBaseline = l.ratios.throughput / s.ratios.throughput;
    const p99 = l.measurement.p99Ms / s.measurement.p99Ms;
    rows.push({
      id: l.id,
      throughput: round(l.measurement.requestsPerSec / s.measurement.requestsPerSec),
      throughputVsBaseline: round(throughputVsBaseline),
      p99: round(p99),
      targetMet: l.isFloor ? null : throughputVsBaseline >= LARGE_THROUGHPUT_TARGET && p99 <= LARGE_P99_LIMIT,
    });
  }
  return { small: small.name, large: large.name, rows };
}

/** The rows as a markdown table (the terminal prints it too). */
export function largeVsSmallTable(result: { scale: number } & ReturnType<typeof largeVsSmall>): string {
  if ("unavailable" in result) return `\nlarge/small: ${result.unavailable}`;
  const lines = [
    `\nlarge/small (${result.large} on the large-school dataset at scale ${result.scale} vs ${result.small} on the demo seed); target: throughput ×baseline ≥ ${LARGE_THROUGHPUT_TARGET}, p99 ≤ ${LARGE_P99_LIMIT}x`,
    "",
    "| workload | throughput | throughput ×baseline | p99 | target |",
    "|---|---:|---:|---:|---|",
    ...result.rows.map((r) => `| ${r.id} | ${r.throughput.toFixed(2)} | ${r.throughputVsBaseline.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.targetMet === null ? "(floor)" : r.targetMet ? "met" : "**missed**"} |`),
  ];
  return lines.join("\n");
}
