// One measured segment: autocannon drives a request for a fixed time; latencies are taken from
// every response's own timing (autocannon's histogram keeps whole milliseconds, too coarse for a
// bare route handler).
import { createRequire } from "node:module";
import type { EventEmitter } from "node:events";
import { percentile, type Measurement } from "./stats";

// The part of autocannon's programmatic API the bench uses. The package ships no types; typing it
// here rather than with an ambient `declare module` keeps it from clashing with other declarations.
export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
}

interface AutocannonResult {
  errors: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

type Autocannon = (
  options: { url: string; connections: number; pipelining: number; duration: number; timeout: number; requests: AutocannonRequest[] },
  callback: (err: Error | null, result: AutocannonResult) => void,
) => EventEmitter;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const MIN_SETTLE_MS = 200;
const MAX_SETTLE_MS = 3_000;

export interface LoadSpec {
  request: AutocannonRequest;
  /** Whether an answered response counts as a success; an answered one that fails it counts as bad. */
  check?: (status: number, body: string) => boolean;
  /** The one status that answers this request (a form post's 303); by default any 2xx. */
  answeredStatus?: number;
  /** Called before each segment (requests cut off at the end of the previous one never answer). */
  reset?: () => void;
}

export interface SegmentResult extends Measurement {
  requests: number;
  good: number;
  bad: number;
  /** Responses with another status than the answer (any but a 2xx, unless the spec names its status). */
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  durationSec: number;
  /** One example of a failed check, to show why. */
  badSample?: string;
}

export async function runSegment(options: {
  origin: string;
  spec: LoadSpec;
  connections: number;
  durationSec: number;
}): Promise<SegmentResult> {
  const { spec } = options;
  spec.reset?.();
  const latencies: number[] = [];
  let bad = 0;
  let badSample: string | undefined;
  const inner = spec.request.onResponse;
  const answered = (status: number) => (spec.answeredStatus === undefined ? status >= 200 && status < 300 : status === spec.answeredStatus);
  const request: AutocannonRequest = {
    ...spec.request,
    onResponse: (status, body, context, headers) => {
      inner?.(status, body, context, headers);
      if (answered(status) && spec.check && !spec.check(status, body)) {
        bad++;
        badSample ??= `${status} ${body.slice(0, 300)}`;
      }
    },
  };
  const started = process.hrtime.bigint();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.origin,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationSec,
        timeout: 10,
        requests: [request],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (answered(statusCode)) latencies.push(responseTime);
    });
  });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  // Requests cut off when the time was up may still be running on the server: let them finish so
  // they neither slow the next segment nor hold a key it is about to lease again. They started at
  // most one response time ago.
  const p99 = percentile(latencies, 99);
  await new Promise((r) => setTimeout(r, Math.min(MAX_SETTLE_MS, Math.max(MIN_SETTLE_MS, Number.isFinite(p99) ? 1.5 * p99 : MAX_SETTLE_MS))));
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, v.count]));
  const total = Object.values(statusCodes).reduce((s, n) => s + n, 0);
  const good = latencies.length - bad;
  return {
    requestsPerSec: good / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    requests: total,
    good,
    bad,
    non2xx: spec.answeredStatus === undefined ? result.non2xx : total - (statusCodes[spec.answeredStatus] ?? 0),
    errors: result.errors,
    statusCodes,
    durationSec: elapsed,
    badSample,
  };
}
