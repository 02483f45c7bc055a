import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// A smoke run of `npm run bench` so the script cannot rot: it must build nothing (it reuses the
// build this suite made), start its own server on a scratch database, probe every workload, measure
// what is available and write the JSON. Timings are not asserted: CI machines vary.
const WORKLOAD_IDS = [
  "floor-write",
  "floor-read",
  // The bare route behind proxy.ts: the reference of the requests that meet the proxy.
  "baseline-proxied",
  "md-course",
  "llms-full",
  "html-course",
  "create-subscription",
  "checkout-page",
  "checkout-start",
  "courses-query",
  "token-refresh-no-openid",
  "token-refresh",
  "token-code-no-openid",
  "token-code",
  "introspect",
  "limiter-off",
  "limiter-on",
  "mcp-search-catalog",
  "mcp-create-subscription",
  // Reads and changes of existing subscriptions, on the pool bench/prepare-db.ts writes.
  "mcp-list-subscriptions",
  "subscriptions-page",
  "subscriptions-deep-page",
  "subscriptions-by-email",
  "update-subscription",
  "cancel-subscription",
];
const SUBSCRIPTION_WORKLOAD_IDS = WORKLOAD_IDS.slice(WORKLOAD_IDS.indexOf("mcp-list-subscriptions"));
// The member search runs on a backend of its own, on the member dataset, beside its floor.
const MEMBER_WORKLOAD_IDS = ["floor-read", "members-search"];

function runBench(args: string[], deadlineMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
    const child = spawn(process.execPath, [tsx, "bench/run.ts", ...args], {
      // Never a real database: the bench makes its own scratch one. REDIS_URL passes through, so
      // the Redis backend and its round-trip count are smoke-tested when the suite has Redis.
      env: { ...process.env, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so a stuck run is stopped with everything it started.
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    // Stopped before the test's own timeout, so a stuck or slow run fails with its timed progress
    // log (which phase, how long each took) instead of a bare timeout.
    const timer = setTimeout(() => {
      stderr += `\n(bench-smoke: stopped after ${deadlineMs / 1000} s)\n`;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, deadlineMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test("npm run bench --quick runs end to end and writes the results JSON", async () => {
  // About 2½ minutes per main backend on a quiet 2-core machine (its log, seconds: preparing and
  // starting 11, the workloads 60, head to head 31, the peer 11, fairness 28, renewals 4) and 15 s
  // per member-search backend: about 5½ minutes with Redis. The run is stopped at 14 minutes,
  // leaving the test the time to report its timed log.
  const deadlineMs = 840_000;
  test.setTimeout(deadlineMs + 60_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-smoke-"));
  const out = path.join(dir, "latest.json");
  try {
    const { code, stdout, stderr } = await runBench([
      "--quick",
      "--no-build",
      "--segment",
      "1",
      "--warmup",
      "0",
      "--connections",
      "2",
      "--out",
      out,
    ], deadlineMs);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(readFileSync(out, "utf8"));
    expect(result.schema).toBe("schoolhouse-bench/1");
    expect(result.mode).toBe("quick");
    expect(result.build.built).toBe(false);
    expect(typeof result.machine.cores).toBe("number");
    expect(typeof result.conditions.otherProcessesCpuPercent).toBe("number");

    const names = result.backends.map((b: { name: string }) => b.name);
    expect(names.slice(0, 2)).toEqual(["embedded", "members-embedded"]);
    if (process.env.REDIS_URL) expect(names.slice(2)).toEqual(["pglite+redis", "members-pglite+redis"]);
    for (const backend of result.backends) {
      expect(backend.baseline.requestsPerSec).toBeGreaterThan(0);
      expect(backend.peakRssMb).toBeGreaterThan(0);
      // The peak is the largest of the phases' (each segment resets the kernel's high-water mark).
      expect(backend.phasePeakRssMb.workloads).toBeGreaterThan(0);
      expect(backend.peakRssMb).toBe(Math.max(...(Object.values(backend.phasePeakRssMb) as number[])));
      const onMembers = backend.name.startsWith("members-");
      expect(backend.workloads.map((w: { id: string }) => w.id)).toEqual(onMembers ? MEMBER_WORKLOAD_IDS : WORKLOAD_IDS);
      for (const w of backend.workloads) {
        expect(["ok", "unavailable"], `${backend.name}/${w.id}: ${w.reason}`).toContain(w.status);
        if (w.status === "unavailable") {
          expect(w.reason).toEqual(expect.any(String));
          expect(w.ratios).toBeUndefined();
        } else {
          expect(w.measurement.requests).toBeGreaterThan(0);
          expect(Number.isFinite(w.ratios.throughput)).toBe(true);
          expect(Number.isFinite(w.measurement.p50Ms)).toBe(true);
          // Every workload is reported against its floor too (the floors run on every backend).
          if (w.isFloor || w.isReference) expect(w.floor).toBeNull();
          else {
            expect(["floor-write", "floor-read"]).toContain(w.floor);
            expect(Number.isFinite(w.floorRatios.throughput)).toBe(true);
            expect(Number.isFinite(w.floorRatios.p99)).toBe(true);
          }
        }
      }
      if (!onMembers) {
        for (const id of SUBSCRIPTION_WORKLOAD_IDS) {
          const w = backend.workloads.find((x: { id: string }) => x.id === id);
          expect(w.status, `${backend.name}/${id}: ${w.reason}`).toBe("ok");
        }
        // Requests that meet the proxy are judged against its bare route, derived like a floor ratio.
        const html = backend.workloads.find((w: { id: string }) => w.id === "html-course");
        expect(html.targetAgainst).toBe("baseline-proxied");
        if (html.status === "ok") {
          expect(Number.isFinite(html.comparison.throughput)).toBe(true);
          expect(html.comparisonMethod).toMatch(/^derived: /);
        }
      }
      if (onMembers) {
        // Only the search and its floor: no peer, renewals, fairness or Redis count there.
        const members = backend.workloads.find((w: { id: string }) => w.id === "members-search");
        expect(members.status, members.reason).toBe("ok");
        expect([backend.peer, backend.renewals, backend.fairness, backend.redisRoundTrips]).toEqual([null, null, null, null]);
        continue;
      }
      // Ours against node-oidc-provider (bench/peer-measure.ts): the peer's setup checks passed and
      // every row has both sides' figures and the ours/peer ratios.
      const peer = backend.peer;
      expect(peer.status, peer.reason).toBe("ok");
      expect(peer.server).toMatch(/^node-oidc-provider 9\./);
      expect(peer.adapter).toBe(backend.database === "postgres" ? "postgres" : "memory");
      expect(peer.checks).toMatchObject({ chainsRotate: true, idTokenOnRefresh: true, introspectionActive: true, problems: [] });
      expect(peer.rows.map((r: { id: string }) => r.id)).toEqual(["refresh", "introspect", "bare"]);
      for (const r of peer.rows) {
        expect(r.status, `${backend.name}/peer/${r.id}: ${r.reason}`).toBe("ok");
        for (const side of [r.ours, r.peer]) {
          expect(side.requests).toBeGreaterThan(0);
          expect(side.failures).toBe(0);
          expect(Number.isFinite(side.cpuMsPerRequest)).toBe(true);
        }
        for (const k of ["throughput", "p50", "p99", "cpuPerRequest"]) expect(Number.isFinite(r.ratios[k]), `${r.id} ${k}`).toBe(true);
        expect(r.target === null ? r.targetMet : typeof r.targetMet).toBe(r.target === null ? null : "boolean");
      }
      // The renewals scenario (bench/renewals-measure.ts): every due subscription renewed once, and
      // both ratios reported (floor-write ran on this backend).
      const renewals = backend.renewals;
      expect(renewals.status, renewals.reason).toBe("ok");
      expect(renewals.runs.map((r: { count: number }) => r.count)).toEqual([5, 50]);
      for (const r of renewals.runs) expect(r.succeededPayments).toBe(r.count);
      expect(Number.isFinite(renewals.ratioToFloorWrite)).toBe(true);
      expect(Number.isFinite(renewals.flatCostRatio)).toBe(true);
      expect(Number.isFinite(renewals.flatCpuRatio)).toBe(true);
      const redis = backend.redisRoundTrips;
      if (backend.name.endsWith("+redis")) {
        expect(redis).not.toBeNull();
        if (!("unavailable" in redis)) expect(redis.enforced.commandsPerOperation).toBeGreaterThan(0);
      } else {
        expect(redis).toBeNull();
      }
    }
    // The printed table names every workload, and the JSON on stdout is the file's content.
    for (const id of [...WORKLOAD_IDS, ...MEMBER_WORKLOAD_IDS]) expect(stdout).toContain(id);
    expect(stdout).toContain("req/s");
    expect(stdout).toContain("×floor");
    expect(stdout).toContain("ours vs peer (node-oidc-provider");
    expect(stdout).toContain("Renewals (test provider");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
