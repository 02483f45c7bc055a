// A measured segment for the bench's own tests: the head-to-head and the peer comparison read the
// same Segment shape, so their tests build it one way.
import type { Segment } from "./alternating";

export interface SegmentFixture {
  rps: number;
  /** Responses in the segment; `rps` (a one-second segment) when not given. */
  requests?: number;
  /** The server's CPU for the whole segment, ms. */
  cpuMs: number;
  dbCpuMs?: number | null;
  p50?: number;
  p99?: number;
  /** Responses that failed the workload's check, out of `requests`. */
  failures?: number;
}

export function segment({ rps, requests = rps, cpuMs, dbCpuMs = null, p50 = 1, p99 = 1, failures = 0 }: SegmentFixture): Segment {
  return {
    requestsPerSec: rps,
    p50Ms: p50,
    p99Ms: p99,
    requests,
    good: requests - failures,
    bad: failures,
    non2xx: 0,
    errors: 0,
    statusCodes: { 200: requests },
    durationSec: 1,
    cpuMs,
    dbCpuMs,
  };
}
