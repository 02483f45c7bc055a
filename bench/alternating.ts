// Two arms measured in one place, alternating A, B, A, B, …, A with the same connections: each B
// segment is compared with the mean of the A segments either side (slow drift of the machine's load
// cancels out), the pairs are combined by geometric mean, and every segment's CPU per request is
// read from /proc (the server's process tree and, on a Postgres on this machine, the database's
// backends), which other load on a shared machine barely moves. The peer comparison (A the peer,
// B ours: peer-measure.ts) and the targets against another workload (A that workload, B the one
// with the target: measure.ts) both run this way (docs/benchmarks.md, "Head to head").
import type { SegmentResult } from "./load";
import { cpuBetween, pidsCpuMs, treeCpuMs } from "./proc-cpu";
import type { Settings } from "./options";
import { adjacentMean, combineRatios, ratios, round, type Measurement } from "./stats";

/** A measured segment with the CPU spent while it ran (and settled). */
export interface Segment extends SegmentResult {
  /** The server's process tree, user + system, ms. */
  cpuMs: number;
  /** The database's backends serving this side, ms; null when they cannot be read (not Postgres, or not on this machine). */
  dbCpuMs: number | null;
}

/** B ÷ A: throughput (higher is better), p50, p99 and CPU per request (lower is better). */
export interface AlternatingRatios {
  throughput: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  dbCpuPerRequest: number | null;
  /** Each pair's throughput ratio in run order: their spread is the comparison's noise. */
  pairThroughput: number[];
}

const perRequest = (ms: number, s: SegmentResult) => (s.requests > 0 ? ms / s.requests : Number.NaN);
const geo = (xs: number[]) => (xs.length && xs.every((x) => x > 0 && Number.isFinite(x)) ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : Number.NaN);

/**
 * Ratios of the sequence A₀, B₀, A₁, B₁, …, Aₙ: each Bᵢ against the mean of Aᵢ and Aᵢ₊₁ (its
 * throughput, latencies and CPU per request alike), the n pairs combined by geometric mean. The
 * database's CPU only when every segment has it.
 */
export function alternatingRatios(a: Segment[], b: Segment[]): AlternatingRatios {
  if (a.length !== b.length + 1 || b.length === 0) throw new Error(`expected n B and n + 1 A segments, got ${b.length} and ${a.length}`);
  const each = b.map((s, i) => ratios(s, adjacentMean(a[i], a[i + 1])!));
  const cpuRatio = (ms: (s: Segment) => number) => b.map((s, i) => perRequest(ms(s), s) / ((perRequest(ms(a[i]!), a[i]!) + perRequest(ms(a[i + 1]!), a[i + 1]!)) / 2));
  const hasDb = [...a, ...b].every((s) => s.dbCpuMs !== null);
  const r = combineRatios(each)!;
  return {
    throughput: round(r.throughput),
    p50: round(r.p50),
    p99: round(r.p99),
    cpuPerRequest: round(geo(cpuRatio((s) => s.cpuMs))),
    dbCpuPerRequest: hasDb ? round(geo(cpuRatio((s) => s.dbCpuMs!))) : null,
    pairThroughput: each.map((x) => round(x.throughput)),
  };
}

export interface SideMeasurement extends Measurement {
  requests: number;
  failures: number;
  /** Server process tree CPU ÷ responses. */
  cpuMsPerRequest: number;
  /** The database server's CPU for this side ÷ responses (its Postgres backends); null when not measurable. */
  dbCpuMsPerRequest: number | null;
}

/** One arm's figures over its segments (means; CPU summed over all of them ÷ all responses). */
export function sideMeasurement(list: Segment[]): SideMeasurement {
  const mean = (f: (s: Segment) => number) => {
    const v = list.map(f).filter(Number.isFinite);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : Number.NaN;
  };
  const requests = list.reduce((s, x) => s + x.requests, 0);
  const failures = list.reduce((s, x) => s + x.bad + x.non2xx + x.errors, 0);
  const db = list.every((s) => s.dbCpuMs !== null) ? list.reduce((s, x) => s + x.dbCpuMs!, 0) : null;
  return {
    requestsPerSec: round(mean((s) => s.requestsPerSec), 1),
    p50Ms: round(mean((s) => s.p50Ms)),
    p99Ms: round(mean((s) => s.p99Ms)),
    requests,
    failures,
    cpuMsPerRequest: round(requests ? list.reduce((s, x) => s + x.cpuMs, 0) / requests : Number.NaN),
    dbCpuMsPerRequest: db === null || !requests ? null : round(db / requests),
  };
}

/** Runs A, then `pairs` × (B, A): the order alternatingRatios expects. */
export async function alternate(o: { pairs: number; a: () => Promise<Segment>; b: () => Promise<Segment> }): Promise<{ a: Segment[]; b: Segment[] }> {
  const a = [await o.a()];
  const b: Segment[] = [];
  for (let i = 0; i < o.pairs; i++) {
    b.push(await o.b());
    a.push(await o.a());
  }
  return { a, b };
}

/**
 * One segment with the CPU it cost: the process tree of `pid` and, when `dbPids` is given, the
 * database backends it names (read before and after; a backend that starts meanwhile counts whole).
 */
export async function withCpu(o: { pid: number; dbPids: (() => Promise<number[]>) | null }, run: () => Promise<SegmentResult>): Promise<Segment> {
  const db0 = o.dbPids ? pidsCpuMs(await o.dbPids()) : null;
  const cpu0 = treeCpuMs(o.pid);
  const r = await run();
  const cpuMs = treeCpuMs(o.pid) - cpu0;
  const db1 = o.dbPids ? pidsCpuMs(await o.dbPids()) : null;
  return { ...r, cpuMs, dbCpuMs: db0 && db1 ? cpuBetween(db0, db1) : null };
}

/** Pairs of a head-to-head target (measure.ts): two pairs swung from 0.89 to 1.07 between runs of the same build, four halve the variance. */
export const headToHeadPairs = (quick: boolean): number => (quick ? 2 : 4);
/** Pairs of each row of the peer comparison (peer-measure.ts). */
export const peerPairs = (quick: boolean): number => (quick ? 1 : 3);

/**
 * Refresh tokens per pool (with and without openid) a backend's run needs. Each refresh rotates
 * its token and the response's new one goes back into the pool, so a pool holds one chain per
 * in-flight request; a segment's end may strand one per connection (a request cut off, its new
 * token never read). Segments of the busiest arm, token-refresh: its warm-up, the rounds, the head
 * to head (a warm-up and the pairs; its no-openid arm runs one segment more, and no peer), and the
 * peer comparison's warm-up and pairs. One more segment's worth for the chains in flight, and a
 * margin.
 */
export function refreshTokensNeeded(settings: Settings, quick: boolean): number {
  const warm = settings.warmupSeconds > 0 ? 1 : 0;
  const segments = warm + settings.rounds + warm + headToHeadPairs(quick) + 1 + warm + peerPairs(quick);
  return settings.connections * (segments + 1) + 16;
}

/** Fewer codes than this per second of a code arm's segments would be a risk: the exchange has done up to 1,830 a second (two statements since 5506792). */
const MAX_CODE_EXCHANGES_PER_SECOND = 4_000;

/**
 * Authorization codes per kind (with and without openid): single-use, one per token-code request.
 * The seconds the no-openid arm runs (warm-up, rounds, the head to head's warm-up and pairs + 1) at
 * a rate well above any measured: 80,000 for a full run's defaults, 24,000 for --quick.
 */
export function codesNeeded(settings: Settings, quick: boolean): number {
  const seconds = 2 * settings.warmupSeconds + settings.segmentSeconds * (settings.rounds + headToHeadPairs(quick) + 1);
  return MAX_CODE_EXCHANGES_PER_SECOND * seconds;
}
