// Pure arithmetic of the benchmark: percentiles, adjacent-baseline references and ratios.

/** Nearest-rank percentile of unsorted samples; NaN when there are none. */
export function percentile(samples: ArrayLike<number>, p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface Measurement {
  /** Good responses (2xx whose body passed the workload's check) per second. */
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

/** The mean of the baseline segments either side of a workload, so slow drift in machine load cancels out. */
export function adjacentMean(before: Measurement | undefined, after: Measurement | undefined): Measurement | undefined {
  const parts = [before, after].filter((m): m is Measurement => m !== undefined);
  if (parts.length === 0) return undefined;
  return meanMeasurement(parts);
}

/** Field-wise mean; a segment without a single good response has no latency and is left out of it. */
export function meanMeasurement(list: Measurement[]): Measurement {
  const mean = (f: (m: Measurement) => number) => {
    const values = list.map(f).filter(Number.isFinite);
    return values.length ? values.reduce((s, v) => s + v, 0) / values.length : Number.NaN;
  };
  return { requestsPerSec: mean((m) => m.requestsPerSec), p50Ms: mean((m) => m.p50Ms), p99Ms: mean((m) => m.p99Ms) };
}

export interface Ratios {
  /** workload throughput / reference throughput: higher is better, targets apply here. */
  throughput: number;
  /** workload latency / reference latency: lower is better, 1 means as fast as the reference. */
  p50: number;
  p99: number;
}

const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) && Number.isFinite(b) ? a / b : Number.NaN);

export function ratios(workload: Measurement, reference: Measurement): Ratios {
  return {
    throughput: ratio(workload.requestsPerSec, reference.requestsPerSec),
    p50: ratio(workload.p50Ms, reference.p50Ms),
    p99: ratio(workload.p99Ms, reference.p99Ms),
  };
}

/**
 * A workload's ratios to a reference measured in the same run (a floor, the proxied bare route),
 * from the two baseline-normalised ratios: (workload ÷ its adjacent baselines) ÷ (reference ÷ its
 * adjacent baselines), so drift in machine load between the two segments cancels out.
 */
export function derivedRatios(workload: Ratios, reference: Ratios): Ratios {
  return { throughput: ratio(workload.throughput, reference.throughput), p50: ratio(workload.p50, reference.p50), p99: ratio(workload.p99, reference.p99) };
}

/** Combines several rounds of one workload's ratios (geometric mean: ratios multiply). */
export function combineRatios(list: Ratios[]): Ratios | undefined {
  if (list.length === 0) return undefined;
  const geo = (f: (r: Ratios) => number) => Math.exp(list.reduce((s, r) => s + Math.log(f(r)), 0) / list.length);
  return { throughput: geo((r) => r.throughput), p50: geo((r) => r.p50), p99: geo((r) => r.p99) };
}

/** Rounds for display and JSON: 3 significant decimals are more than the noise allows. */
export function round(n: number, digits = 3): number {
  if (!Number.isFinite(n)) return n;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
