// The bench server's peak resident memory per phase of a backend's run. Each segment resets the
// kernel's high-water mark (RssMeter), so a reading at the end only covers what ran after the last
// reset: the backend's peak is the largest phase peak, and the phases say where it was reached.

export const BENCH_PHASES = ["workloads", "head to head", "peer", "Redis round trips", "fairness"] as const;
export type BenchPhase = (typeof BENCH_PHASES)[number];

export class PhasePeaks {
  private readonly peaks = new Map<BenchPhase, number>();

  note(phase: BenchPhase, peakMb: number): void {
    if (!Number.isFinite(peakMb)) return;
    this.peaks.set(phase, Math.max(this.peaks.get(phase) ?? 0, peakMb));
  }

  /** The largest peak of any phase, MB (0 before any was noted). */
  peak(): number {
    return Math.max(0, ...this.peaks.values());
  }

  /** Each measured phase's peak in run order, to 0.1 MB. */
  rounded(): Partial<Record<BenchPhase, number>> {
    const out: Partial<Record<BenchPhase, number>> = {};
    for (const phase of BENCH_PHASES) {
      const mb = this.peaks.get(phase);
      if (mb !== undefined) out[phase] = Math.round(mb * 10) / 10;
    }
    return out;
  }
}
