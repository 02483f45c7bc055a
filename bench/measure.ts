// Measuring one backend: the baseline and every selected workload interleaved (baseline, w1,
// baseline, w2, …), ratios to the adjacent baselines and to each workload's floor, head-to-head
// pairs, Redis round trips and the fairness scenario.
import { measureFairness, type FairnessReport } from "./fairness";
import { runSegment, type LoadSpec, type SegmentResult } from "./load";
import { log } from "./log";
import type { OtherLoad } from "./machine";
import type { BenchOptions } from "./options";
import { measureRoundTrips, type RoundTrips } from "./redis-round-trips";
import { prepareBackendDatabase, serverEnv, type Backend } from "./scratch-db";
import { MEMBER_SEARCH_ID } from "./workloads";
import { PhasePeaks, type BenchPhase } from "./phase-peaks";
import { BenchServer, benchOrigin, freePort, RssMeter } from "./server";
import { measureAgainstPeer, OUR_WORKLOAD, type PeerReport } from "./peer-measure";
import { measureRenewals, type RenewalsReport } from "./renewals-measure";
import { adjacentMean, combineRatios, derivedRatios, meanMeasurement, ratios, round, type Measurement, type Ratios } from "./stats";
import { alternate, alternatingRatios, codesNeeded, headToHeadPairs, refreshTokensNeeded, sideMeasurement, withCpu, type AlternatingRatios, type SideMeasurement } from "./alternating";
import { PostgresBackends } from "./proc-cpu";
import { baseline, LIMITER_QUERY, WORKLOADS, type Workload } from "./workloads";

export interface WorkloadReport {
  id: string;
  title: string;
  endpoint: string;
  /** A floor: the raw driver's cost of a hot path's database work, reference of the floor ratios. */
  isFloor: boolean;
  /** A reference route (the proxied bare route): targets against it are derived like floor ratios. */
  isReference: boolean;
  /** The floor this workload is also reported against; null for the floors themselves. */
  floor: string | null;
  target: number | null;
  targetAgainst: string;
  status: "ok" | "errors" | "unavailable";
  reason?: string;
  note?: string;
  measurement?: Measurement & { requests: number; failures: number; statusCodes: Record<string, number> };
  reference?: Measurement;
  ratios?: Ratios;
  /** Ratios to the floor: (workload ÷ its adjacent baselines) ÷ (floor ÷ its adjacent baselines). */
  floorRatios?: Ratios;
  /**
   * For targets against another workload: this workload's ratios to that one, derived (a reference
   * route) or measured head to head (alternating, with CPU per request and each pair's throughput).
   */
  comparison?: Ratios | AlternatingRatios;
  comparisonMethod?: string;
  /** Head to head: both arms' figures over their alternating segments (the other workload's, then this one's). */
  headToHead?: { against: SideMeasurement; workload: SideMeasurement };
  targetMet?: boolean | null;
  peakRssMb?: number;
}

export interface BackendReport {
  name: string;
  database: string;
  limiterStore: string;
  /** The server's peak RSS over every phase (the largest of phasePeakRssMb). */
  peakRssMb: number;
  /** The server's peak RSS in each phase: the workloads' sequence, head to head, peer, Redis round trips, fairness. */
  phasePeakRssMb?: Partial<Record<BenchPhase, number>>;
  /** segmentRequestsPerSec: each baseline segment in run order, so drift between them can be seen. */
  baseline: Measurement & { segments: number; segmentRequestsPerSec: number[] };
  workloads: WorkloadReport[];
  redisRoundTrips: { enforced: RoundTrips; counted: RoundTrips; goal: number; met: boolean } | { unavailable: string } | null;
  fairness: FairnessReport | null;
  /** Ours against node-oidc-provider on the same machine (bench/peer-measure.ts); null when not selected. */
  peer: PeerReport | null;
  /** A renewal run over due subscriptions (bench/renewals-measure.ts); null when not selected. */
  renewals: RenewalsReport | null;
}

export const meanOf = (list: Measurement[]): Measurement => meanMeasurement(list);
export const roundM = (m: Measurement): Measurement => ({ requestsPerSec: round(m.requestsPerSec, 1), p50Ms: round(m.p50Ms), p99Ms: round(m.p99Ms) });
export const roundR = (r: Ratios): Ratios => ({ throughput: round(r.throughput), p50: round(r.p50), p99: round(r.p99) });

export async function measureBackend(backend: Backend, port: number, otherLoad: OtherLoad, opts: BenchOptions): Promise<BackendReport> {
  const { settings, quick } = opts;
  // The member search runs on a backend of its own (its floor beside it): in the demo database its
  // 200,000 generated members slowed every other workload (6x on PGlite), so their ratios no longer
  // compared with earlier runs. That backend runs nothing else.
  const onMembers = backend.memberDataset === true;
  const memberFloor = WORKLOADS.find((w) => w.id === MEMBER_SEARCH_ID)?.floor;
  const selected = opts.selected.filter((w) => (onMembers ? w.id === MEMBER_SEARCH_ID || w.id === memberFloor : w.id !== MEMBER_SEARCH_ID));
  const wantFairness = opts.wantFairness && !onMembers;
  const wantPeer = opts.wantPeer && !onMembers;
  // Refresh tokens rotate and codes are single-use: counted from the run's segments (bench/alternating.ts).
  const tokensNeeded = refreshTokensNeeded(settings, quick);
  log(`[${backend.name}] preparing a scratch database (migrate, demo seed, bench keys and tokens)…`);
  const members = onMembers ? opts.members : 0;
  const creds = prepareBackendDatabase(backend, settings.connections * 2, tokensNeeded, benchOrigin(port), codesNeeded(settings, quick), members);
  log(`[${backend.name}] starting the server (server/start.mjs) on port ${port}…`);
  const server = await BenchServer.start({ port, env: serverEnv(backend) });
  try {
    const ctx = { origin: server.origin, creds, runId: Date.now().toString(36), connections: settings.connections };
    const base = await baseline.prepare(ctx);
    if ("unavailable" in base) throw new Error(`the baseline route is not in this build: ${base.unavailable}`);

    const reports = new Map<string, WorkloadReport>();
    const ready: { workload: Workload; spec: LoadSpec }[] = [];
    for (const w of selected) {
      const report: WorkloadReport = {
        id: w.id,
        title: w.title,
        endpoint: w.endpoint,
        isFloor: w.isFloor === true,
        isReference: w.isReference === true,
        floor: w.floor ?? null,
        target: w.target ? w.target[backend.database] : null,
        targetAgainst: w.target?.against ?? "baseline",
        status: "unavailable",
      };
      reports.set(w.id, report);
      try {
        const p = await w.prepare(ctx);
        if ("unavailable" in p) {
          report.reason = p.unavailable;
          log(`[${backend.name}] ${w.id}: unavailable: ${p.unavailable}`);
        } else {
          report.note = p.note;
          ready.push({ workload: w, spec: p.spec });
        }
      } catch (err) {
        report.reason = `probe failed: ${(err as Error).message}`;
        log(`[${backend.name}] ${w.id}: unavailable: ${report.reason}`);
      }
    }

    // The server's peak RSS per phase of the run: every segment resets the kernel's high-water mark
    // (RssMeter), so the backend's peak is the largest of the phases', never one last reading.
    const phasePeaks = new PhasePeaks();
    let phase: BenchPhase = "workloads";
    const segment = async (spec: LoadSpec, seconds: number) => {
      const rss = new RssMeter(server.pid);
      rss.start();
      otherLoad.begin();
      const r = await runSegment({ origin: server.origin, spec, connections: settings.connections, durationSec: seconds });
      otherLoad.end();
      const peakRssMb = rss.stop();
      phasePeaks.note(phase, peakRssMb);
      return { ...r, peakRssMb };
    };
    const metered = async <T>(name: BenchPhase, run: () => Promise<T>): Promise<T> => {
      const rss = new RssMeter(server.pid);
      rss.start();
      try {
        return await run();
      } finally {
        phasePeaks.note(name, rss.stop());
      }
    };

    if (settings.warmupSeconds > 0) {
      log(`[${backend.name}] warming up ${ready.length + 1} workloads (${settings.warmupSeconds} s each)…`);
      for (const { spec } of ready) await segment(spec, settings.warmupSeconds);
      // The baseline warms up last, right before the first measured baseline: measured straight
      // after the other warm-ups it ran 8–15% slower than every later baseline segment, which
      // inflated the first workload's ratio (a floor) and so deflated every ratio to that floor.
      await segment(base.spec, settings.warmupSeconds);
    }

    // baseline, w1, baseline, w2, …, baseline: every workload sits between two baselines.
    const baselines: SegmentResult[] = [];
    const runs = new Map<string, { result: SegmentResult & { peakRssMb: number }; before: number }[]>();
    for (let r = 0; r < settings.rounds; r++) {
      if (baselines.length === 0) baselines.push(await segment(base.spec, settings.segmentSeconds));
      for (const { workload, spec } of ready) {
        log(`[${backend.name}] round ${r + 1}/${settings.rounds}: ${workload.id}`);
        const result = await segment(spec, settings.segmentSeconds);
        const list = runs.get(workload.id) ?? [];
        list.push({ result, before: baselines.length - 1 });
        runs.set(workload.id, list);
        baselines.push(await segment(base.spec, settings.segmentSeconds));
      }
    }

    for (const { workload } of ready) {
      const report = reports.get(workload.id)!;
      const list = runs.get(workload.id)!;
      const perRound = list.map(({ result, before }) => {
        const ref = adjacentMean(baselines[before], baselines[before + 1])!;
        return { ref, ratios: ratios(result, ref) };
      });
      const results = list.map((l) => l.result);
      const failures = results.reduce((s, r) => s + r.bad + r.non2xx + r.errors, 0);
      const statusCodes: Record<string, number> = {};
      for (const r of results) for (const [k, v] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
      report.measurement = {
        ...roundM(meanOf(results)),
        requests: results.reduce((s, r) => s + r.requests, 0),
        failures,
        statusCodes,
      };
      report.reference = roundM(meanOf(perRound.map((p) => p.ref)));
      report.ratios = roundR(combineRatios(perRound.map((p) => p.ratios))!);
      report.peakRssMb = round(Math.max(...list.map((l) => l.result.peakRssMb)), 1);
      report.status = failures > 0 ? "errors" : "ok";
      if (failures > 0) {
        const sample = results.find((r) => r.badSample)?.badSample;
        report.reason = `${failures} of ${report.measurement.requests} responses failed (status codes ${JSON.stringify(statusCodes)})${sample ? `; e.g. ${sample}` : ""}`;
      }
    }
    // Ratios to the floor, derived from the two baseline-normalised ratios: each was measured between
    // its own adjacent baselines, so drift in machine load cancels out of both.
    for (const report of reports.values()) {
      const floor = report.floor ? reports.get(report.floor) : undefined;
      if (!report.ratios || !floor?.ratios) continue;
      report.floorRatios = roundR(derivedRatios(report.ratios, floor.ratios));
    }

    // Targets against another workload (limiter on vs off, an ID token or none): small effects (3%,
    // 10%) on a noisy machine, so besides the baseline sequence the pair runs head to head in one
    // place, after a warm-up of each: other, w, other, w, …, other, each w segment against the two
    // around it, pairs by geometric mean, with CPU per request from /proc (bench/alternating.ts).
    // The target is judged on that throughput ratio.
    phase = "head to head";
    const dbBackends = backend.database === "postgres" && backend.env.DATABASE_URL ? await PostgresBackends.open(backend.env.DATABASE_URL).catch(() => null) : null;
    try {
      const cpuSegment = (spec: LoadSpec, seconds: number) => withCpu({ pid: server.pid, dbPids: dbBackends ? () => dbBackends.all() : null }, () => segment(spec, seconds));
      for (const report of reports.values()) {
        if (report.target === null || !report.ratios) continue;
        if (report.targetAgainst === "baseline") {
          report.targetMet = report.ratios.throughput >= report.target;
          continue;
        }
        if (report.targetAgainst === report.floor) {
          report.targetMet = report.floorRatios ? report.floorRatios.throughput >= report.target : null;
          continue;
        }
        const other = reports.get(report.targetAgainst);
        if (other?.isReference) {
          // Like a floor: derived from the baseline-normalised ratios of the same rounds.
          report.comparison = other.ratios ? roundR(derivedRatios(report.ratios, other.ratios)) : undefined;
          report.comparisonMethod = `derived: (${report.id} ÷ its adjacent baselines) ÷ (${other.id} ÷ its adjacent baselines)`;
          report.targetMet = report.comparison ? report.comparison.throughput >= report.target : null;
          continue;
        }
        const mine = ready.find((r) => r.workload.id === report.id)!;
        const theirs = ready.find((r) => r.workload.id === report.targetAgainst);
        if (!other?.ratios || !theirs) {
          report.targetMet = null;
          continue;
        }
        const pairs = headToHeadPairs(quick);
        log(`[${backend.name}] ${report.id} against ${report.targetAgainst}, head to head (${pairs} pairs)`);
        if (settings.warmupSeconds > 0) {
          await segment(mine.spec, settings.warmupSeconds);
          await segment(theirs.spec, settings.warmupSeconds);
        }
        const { a, b } = await alternate({ pairs, a: () => cpuSegment(theirs.spec, settings.segmentSeconds), b: () => cpuSegment(mine.spec, settings.segmentSeconds) });
        report.comparison = alternatingRatios(a, b);
        report.headToHead = { against: sideMeasurement(a), workload: sideMeasurement(b) };
        report.comparisonMethod =
          `head to head: ${report.targetAgainst}, then ${pairs} × (${report.id}, ${report.targetAgainst}); each ${report.id} segment against the mean of the two around it, ` +
          `pairs by geometric mean; CPU per request from /proc (the server's process tree${dbBackends ? " and the database's backends" : ""})`;
        report.targetMet = report.comparison.throughput >= report.target;
        const failures = report.headToHead.against.failures + report.headToHead.workload.failures;
        if (failures > 0) {
          report.status = "errors";
          const sample = [...a, ...b].find((x) => x.badSample)?.badSample;
          report.reason = `${report.reason ? `${report.reason}; ` : ""}head to head: ${failures} failed responses${sample ? `; e.g. ${sample}` : ""}`;
        }
      }
    } finally {
      await dbBackends?.close().catch(() => undefined);
    }

    // Ours against the peer: the specs measured above are reused (a refresh pool's tokens have rotated).
    const peerPort = wantPeer ? await freePort() : 0;
    const peer = wantPeer
      ? await metered("peer", () => measureAgainstPeer({
          database: backend.database,
          databaseUrl: backend.database === "postgres" ? backend.env.DATABASE_URL : undefined,
          ours: { origin: server.origin, pid: server.pid },
          ourSpec: async (id) => {
            const workloadId = OUR_WORKLOAD[id];
            if (workloadId === "baseline") return base.spec;
            const known = ready.find((r) => r.workload.id === workloadId);
            if (known) return known.spec;
            const w = WORKLOADS.find((x) => x.id === workloadId)!;
            const p = await w.prepare(ctx);
            return "unavailable" in p ? p : p.spec;
          },
          port: peerPort,
          settings,
          quick,
          log: (line) => log(`[${backend.name}] peer: ${line}`),
        }))
      : null;

    let redisRoundTrips: BackendReport["redisRoundTrips"] = null;
    if (backend.redisUrl && !onMembers) {
      const limiterReady = ready.some((r) => r.workload.id === "limiter-on");
      if (!limiterReady) {
        redisRoundTrips = { unavailable: reports.get("limiter-on")?.reason ?? "the limiter workloads were not selected" };
      } else {
        const ops = quick ? 20 : 200;
        const op = (key: string) => async () => {
          const res = await fetch(`${server.origin}/admin/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-service-api-key": key },
            body: LIMITER_QUERY,
          });
          await res.arrayBuffer();
        };
        log(`[${backend.name}] counting Redis commands over ${ops} operations per kind…`);
        try {
          const redisUrl = backend.redisUrl;
          const { enforced, counted } = await metered("Redis round trips", async () => ({
            enforced: await measureRoundTrips({ redisUrl, serverPid: server.pid, operations: ops, operation: op(creds.enforcedKeys[0]!) }),
            counted: await measureRoundTrips({ redisUrl, serverPid: server.pid, operations: ops, operation: op(creds.countedKeys[0]!) }),
          }));
          const r3 = (t: RoundTrips): RoundTrips => ({
            ...t,
            commandsPerOperation: round(t.commandsPerOperation, 2),
            serverWideCommandsPerOperation: round(t.serverWideCommandsPerOperation, 2),
            byCommand: Object.fromEntries(Object.entries(t.byCommand).map(([k, v]) => [k, round(v, 2)])),
          });
          redisRoundTrips = { enforced: r3(enforced), counted: r3(counted), goal: 2, met: enforced.commandsPerOperation <= 2 && counted.commandsPerOperation <= 2 };
        } catch (err) {
          redisRoundTrips = { unavailable: `counting failed: ${(err as Error).message}` };
        }
      }
    }

    // Last: it adds rows and leaves the abuser's budget spent.
    const fairness = wantFairness
      ? await metered("fairness", () => measureFairness({
          origin: server.origin,
          abuserKey: creds.enforcedKeys[1]!,
          unlimitedAbuserKey: creds.countedKeys[0]!,
          victimKey: creds.enforcedKeys[0]!,
          seconds: settings.segmentSeconds * 2,
          runId: ctx.runId,
          log: (line) => log(`[${backend.name}] ${line}`),
        })).catch((err: Error): FairnessReport => ({ status: "unavailable", reason: err.message, targetP99Ms: 250 }))
      : null;

    // In its own process on its own scratch database; against floor-write as measured above.
    const floorWrite = reports.get("floor-write");
    const renewals = opts.renewals && !onMembers
      ? await measureRenewals({
          backend,
          size: opts.renewals,
          floorWriteRps: floorWrite?.status === "ok" && floorWrite.measurement ? floorWrite.measurement.requestsPerSec : null,
          log: (line) => log(`[${backend.name}] ${line}`),
        })
      : null;

    return {
      name: backend.name,
      database: backend.database,
      limiterStore: backend.limiterStore,
      peakRssMb: round(phasePeaks.peak(), 1),
      phasePeakRssMb: phasePeaks.rounded(),
      baseline: {
        ...roundM(meanOf(baselines)),
        segments: baselines.length,
        segmentRequestsPerSec: baselines.map((b) => round(b.requestsPerSec, 1)),
      },
      workloads: [...reports.values()],
      redisRoundTrips,
      fairness,
      peer,
      renewals,
    };
  } finally {
    await server.stop();
  }
}