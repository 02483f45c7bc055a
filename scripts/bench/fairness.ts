// The fairness scenario of `npm run bench` (issue 11): one API key loops its heaviest allowed
// request with its whole in-flight budget, while another key's small query and /api/health are
// asked one after another. Reports the victims' p50/p99 under abuse next to the same requests on
// the quiet server (measured just before, side by side), against the 250 ms p99 target.
//
// The abuser uses a counted-only key (limits reported, never refused): the worst case, where the
// runtime budget does not turn the abuse into cheap 429s and only the database's fair share
// (lib/db/fair-gate.ts) and the batching loaders stand between the abuser and everyone else.
import { percentile, round } from "./stats";

export const FAIRNESS_TARGET_P99_MS = 250;
const GRAPHQL = "/admin/graphql";
const VICTIM_QUERY = "{ membershipPlans { id } }";
const PAGE = "subscriptions(first: 100) { nodes { id state isCancellable plan { name price } user { email name } payments { id amount state } } }";
/** Rows the abuser's pages read: full pages of 100. */
const ROWS = 400;
const MONTHLY_PLAN_ID = "5c400000-0000-4000-8000-000300000001";

export interface LatencySummary {
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface FairnessReport {
  status: "ok" | "unavailable";
  reason?: string;
  targetP99Ms: number;
  seconds?: number;
  /** Aliased pages of 100 in the abuser's request (as many as the cost limit admits). */
  abuserPagesPerRequest?: number;
  abuserConcurrency?: number;
  abuser?: { requests: number; statusCodes: Record<string, number>; p50Ms: number };
  quiet?: { victim: LatencySummary; health: LatencySummary };
  underAbuse?: { victim: LatencySummary; health: LatencySummary };
  /** p99 under abuse ÷ p99 quiet (same run, same server). */
  p99Ratio?: { victim: number; health: number };
  targetMet?: boolean;
}

async function post(origin: string, key: string, query: string, signal?: AbortSignal) {
  const res = await fetch(origin + GRAPHQL, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-service-api-key": key },
    body: JSON.stringify({ query }),
    signal: signal ?? AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let body: { data?: Record<string, unknown>; errors?: { message: string; extensions?: { code?: string } }[] } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

/** Sequential requests until `until` resolves; each latency in ms. */
async function loop(until: { stopped: boolean }, ask: () => Promise<boolean>): Promise<{ latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  while (!until.stopped) {
    const started = performance.now();
    let ok = false;
    try {
      ok = await ask();
    } catch {
      ok = false;
    }
    latencies.push(performance.now() - started);
    if (!ok) failures++;
  }
  return { latencies, failures };
}

function summary(r: { latencies: number[]; failures: number }): LatencySummary {
  return {
    requests: r.latencies.length,
    failures: r.failures,
    p50Ms: round(percentile(r.latencies, 50), 1),
    p99Ms: round(percentile(r.latencies, 99), 1),
    maxMs: round(r.latencies.length ? Math.max(...r.latencies) : Number.NaN, 1),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Victim and health loops for `seconds`, optionally while `abuse` runs. */
async function victims(origin: string, victimKey: string, seconds: number) {
  const until = { stopped: false };
  const victim = loop(until, async () => {
    const r = await post(origin, victimKey, VICTIM_QUERY);
    return r.status === 200 && Array.isArray(r.body?.data?.membershipPlans);
  });
  const health = loop(until, async () => {
    const res = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(60_000) });
    await res.arrayBuffer();
    return res.status === 200;
  });
  await sleep(seconds * 1000);
  until.stopped = true;
  return { victim: summary(await victim), health: summary(await health) };
}

export async function measureFairness(options: {
  origin: string;
  /** Counted-only key of the demo school: the abuser. */
  abuserKey: string;
  /** Another credential: the victim. */
  victimKey: string;
  seconds: number;
  /** The abuser's in-flight budget (RATE_LIMIT_MAX_IN_FLIGHT). */
  concurrency?: number;
  runId: string;
  log: (line: string) => void;
}): Promise<FairnessReport> {
  const { origin, abuserKey, victimKey, seconds, runId, log } = options;
  const concurrency = options.concurrency ?? 10;
  const base: FairnessReport = { status: "unavailable", targetP99Ms: FAIRNESS_TARGET_P99_MS };

  const probe = await post(origin, victimKey, VICTIM_QUERY).catch((err: Error) => ({ status: 0, body: undefined, text: err.message }));
  if (probe.status !== 200 || !Array.isArray(probe.body?.data?.membershipPlans)) {
    return { ...base, reason: `POST ${GRAPHQL} ${VICTIM_QUERY} → ${probe.status} ${probe.text.slice(0, 160)}` };
  }

  // Full pages for the abuser: subscriptions made through the API, 50 aliased mutations a request.
  log(`fairness: adding ${ROWS} subscriptions for the abuser's pages…`);
  for (let made = 0; made < ROWS; made += 50) {
    const aliases = Array.from(
      { length: 50 },
      (_, i) =>
        `m${i}: createSubscription(input: { email: "fair.${runId}.${made + i}@example.com", name: "Fairness ${made + i}", planId: "${MONTHLY_PLAN_ID}" }) { errors }`,
    );
    const r = await post(origin, abuserKey, `mutation { ${aliases.join(" ")} }`);
    if (r.status !== 200) return { ...base, reason: `creating subscriptions → ${r.status} ${r.text.slice(0, 160)}` };
  }

  // The heaviest request the operation limits admit: as many aliased full pages as the cost allows.
  let pages = 0;
  let heavy = "";
  for (let n = 8; n >= 1; n--) {
    const query = `{ ${Array.from({ length: n }, (_, i) => `p${i}: ${PAGE}`).join(" ")} }`;
    const r = await post(origin, abuserKey, query);
    if (r.status === 200 && !r.body?.errors) {
      pages = n;
      heavy = query;
      break;
    }
  }
  if (!pages) return { ...base, reason: "no aliased page of 100 subscriptions is admitted by the operation limits" };

  log(`fairness: quiet server, ${seconds} s…`);
  const quiet = await victims(origin, victimKey, seconds);

  log(`fairness: one key looping ${pages} aliased pages of 100 × ${concurrency} in flight, ${seconds} s…`);
  const until = { stopped: false };
  const statusCodes: Record<string, number> = {};
  const abuseLatencies: number[] = [];
  const abusers = Array.from({ length: concurrency }, async () => {
    while (!until.stopped) {
      const started = performance.now();
      const r = await post(origin, abuserKey, heavy).catch(() => ({ status: 0 }));
      abuseLatencies.push(performance.now() - started);
      statusCodes[r.status] = (statusCodes[r.status] ?? 0) + 1;
    }
  });
  // Let the abuse reach its steady state before measuring the victims.
  await sleep(1000);
  const underAbuse = await victims(origin, victimKey, seconds);
  until.stopped = true;
  await Promise.all(abusers);

  const ratio = (a: number, b: number) => round(a / b, 2);
  return {
    status: "ok",
    targetP99Ms: FAIRNESS_TARGET_P99_MS,
    seconds,
    abuserPagesPerRequest: pages,
    abuserConcurrency: concurrency,
    abuser: { requests: abuseLatencies.length, statusCodes, p50Ms: round(percentile(abuseLatencies, 50), 1) },
    quiet,
    underAbuse,
    p99Ratio: { victim: ratio(underAbuse.victim.p99Ms, quiet.victim.p99Ms), health: ratio(underAbuse.health.p99Ms, quiet.health.p99Ms) },
    targetMet:
      underAbuse.victim.failures === 0 &&
      underAbuse.health.failures === 0 &&
      underAbuse.victim.p99Ms < FAIRNESS_TARGET_P99_MS &&
      underAbuse.health.p99Ms < FAIRNESS_TARGET_P99_MS,
  };
}

/** One line for the bench's table. */
export function fairnessLine(r: FairnessReport): string {
  if (r.status !== "ok") return `fairness: unavailable: ${r.reason}`;
  const u = r.underAbuse!;
  const q = r.quiet!;
  return (
    `fairness (one key: ${r.abuserPagesPerRequest} pages of 100 × ${r.abuserConcurrency} in flight, ${r.abuser!.requests} requests ${JSON.stringify(r.abuser!.statusCodes)}): ` +
    `other key p50 ${u.victim.p50Ms} / p99 ${u.victim.p99Ms} ms (quiet ${q.victim.p99Ms}, ×${r.p99Ratio!.victim}), ` +
    `/api/health p50 ${u.health.p50Ms} / p99 ${u.health.p99Ms} ms (quiet ${q.health.p99Ms}, ×${r.p99Ratio!.health}); ` +
    `target p99 < ${r.targetP99Ms} ms ${r.targetMet ? "met" : "MISSED"}`
  );
}
