// The fairness scenario of `npm run bench` (issue 11): one API key loops its heaviest allowed
// request with its whole in-flight budget, while another key's small query and /api/health are
// asked one after another. Reports the victims' p50/p99 under abuse next to the same requests on
// the quiet server (measured just before, side by side), against the 250 ms p99 target.
//
// Two abusers, one after the other: a key whose limits are enforced (the target: its heaviest
// allowed request, looped; once its execution-time budget is spent the limiter answers 429 until it
// refills, so the steady state is measured after the first 429), and a counted-only key (limits
// reported, never refused): the worst case, where only the database's fair share
// (lib/db/fair-gate.ts) and the batching loaders stand between the abuser and everyone else.
import { percentile, round } from "./stats";

export const FAIRNESS_TARGET_P99_MS = 250;
const GRAPHQL = "/admin/graphql";
const VICTIM_QUERY = "{ membershipPlans { id } }";
export const PAGE = "subscriptions(first: 100) { nodes { id state isCancellable plan { name price } user { email name } payments { id amount state } } }";
/** Rows the abuser's pages read: full pages of 100. */
export const ROWS = 400;
const MONTHLY_PLAN_ID = "5c400000-0000-4000-8000-000300000001";

export interface LatencySummary {
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface AbusePhase {
  /** Whether the abuser's key has its limits enforced. */
  enforced: boolean;
  abuser: { requests: number; statusCodes: Record<string, number>; p50Ms: number };
  victim: LatencySummary;
  health: LatencySummary;
  /** p99 under abuse ÷ p99 quiet (same run, same server). */
  p99Ratio: { victim: number; health: number };
  met: boolean;
}

export interface FairnessReport {
  status: "ok" | "unavailable";
  reason?: string;
  targetP99Ms: number;
  seconds?: number;
  /** Aliased pages of 100 in the abuser's request (as many as the cost limit admits). */
  abuserPagesPerRequest?: number;
  abuserConcurrency?: number;
  quiet?: { victim: LatencySummary; health: LatencySummary };
  /** The target's case: the abuser's limits are enforced. */
  underAbuse?: AbusePhase;
  /** The worst case: the abuser's limits are counted only. */
  underUnlimitedAbuse?: AbusePhase;
  /** The target (p99 < 250 ms, no failures) under enforced abuse. */
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
  /** Abusers: a key with limits enforced and a counted-only key of the demo school. */
  abuserKey: string;
  unlimitedAbuserKey: string;
  /** Another credential: the victim. */
  victimKey: string;
  seconds: number;
  /** The abuser's in-flight budget (RATE_LIMIT_MAX_IN_FLIGHT). */
  concurrency?: number;
  runId: string;
  log: (line: string) => void;
}): Promise<FairnessReport> {
  const { origin, abuserKey, unlimitedAbuserKey, victimKey, seconds, runId, log } = options;
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
    const r = await post(origin, unlimitedAbuserKey, `mutation { ${aliases.join(" ")} }`);
    if (r.status !== 200) return { ...base, reason: `creating subscriptions → ${r.status} ${r.text.slice(0, 160)}` };
  }

  // The heaviest request the operation limits admit: as many aliased full pages as the cost allows.
  let pages = 0;
  let heavy = "";
  for (let n = 8; n >= 1; n--) {
    const query = `{ ${Array.from({ length: n }, (_, i) => `p${i}: ${PAGE}`).join(" ")} }`;
    const r = await post(origin, unlimitedAbuserKey, query);
    if (r.status === 200 && !r.body?.errors) {
      pages = n;
      heavy = query;
      break;
    }
  }
  if (!pages) return { ...base, reason: "no aliased page of 100 subscriptions is admitted by the operation limits" };

  log(`fairness: quiet server, ${seconds} s…`);
  const quiet = await victims(origin, victimKey, seconds);

  const abuse = async (key: string, enforced: boolean): Promise<AbusePhase> => {
    log(`fairness: one key (limits ${enforced ? "enforced" : "counted only"}) looping ${pages} aliased pages of 100 × ${concurrency} in flight…`);
    const until = { stopped: false };
    const statusCodes: Record<string, number> = {};
    const latencies: number[] = [];
    let refused = false;
    const abusers = Array.from({ length: concurrency }, async () => {
      while (!until.stopped) {
        const started = performance.now();
        const r = await post(origin, key, heavy).catch(() => ({ status: 0 }));
        latencies.push(performance.now() - started);
        statusCodes[r.status] = (statusCodes[r.status] ?? 0) + 1;
        if (r.status === 429) {
          refused = true;
          // A client honouring Retry-After would wait; an abuser does not, but does not spin either.
          await sleep(50);
        }
      }
    });
    // Steady state: an enforced key has spent its execution-time budget (first 429), or 20 s passed.
    const warmupEnds = performance.now() + (enforced ? 20_000 : 1000);
    while (performance.now() < warmupEnds && !(enforced && refused)) await sleep(100);
    for (const k of Object.keys(statusCodes)) delete statusCodes[k];
    latencies.length = 0;
    const measured = await victims(origin, victimKey, seconds);
    until.stopped = true;
    await Promise.all(abusers);
    return {
      enforced,
      abuser: { requests: latencies.length, statusCodes, p50Ms: round(percentile(latencies, 50), 1) },
      ...measured,
      p99Ratio: { victim: ratio(measured.victim.p99Ms, quiet.victim.p99Ms), health: ratio(measured.health.p99Ms, quiet.health.p99Ms) },
      met:
        measured.victim.failures === 0 &&
        measured.health.failures === 0 &&
        measured.victim.p99Ms < FAIRNESS_TARGET_P99_MS &&
        measured.health.p99Ms < FAIRNESS_TARGET_P99_MS,
    };
  };
  const ratio = (a: number, b: number) => round(a / b, 2);
  const underAbuse = await abuse(abuserKey, true);
  const underUnlimitedAbuse = await abuse(unlimitedAbuserKey, false);
  return {
    status: "ok",
    targetP99Ms: FAIRNESS_TARGET_P99_MS,
    seconds,
    abuserPagesPerRequest: pages,
    abuserConcurrency: concurrency,
    quiet,
    underAbuse,
    underUnlimitedAbuse,
    targetMet: underAbuse.met,
  };
}

/** One line for the bench's table. */
export function fairnessLine(r: FairnessReport): string {
  if (r.status !== "ok") return `fairness: unavailable: ${r.reason}`;
  const q = r.quiet!;
  const phase = (p: AbusePhase) =>
    `abuser limits ${p.enforced ? "enforced" : "counted only"} (${p.abuser.requests} requests ${JSON.stringify(p.abuser.statusCodes)}): ` +
    `other key p50 ${p.victim.p50Ms} / p99 ${p.victim.p99Ms} ms (×${p.p99Ratio.victim} quiet), ` +
    `/api/health p50 ${p.health.p50Ms} / p99 ${p.health.p99Ms} ms (×${p.p99Ratio.health} quiet)`;
  return (
    `fairness (one key looping ${r.abuserPagesPerRequest} pages of 100 × ${r.abuserConcurrency} in flight; quiet p99: other key ${q.victim.p99Ms} ms, health ${q.health.p99Ms} ms): ` +
    `${phase(r.underAbuse!)}; target p99 < ${r.targetP99Ms} ms ${r.targetMet ? "met" : "MISSED"}. Worst case, ${phase(r.underUnlimitedAbuse!)}`
  );
}
