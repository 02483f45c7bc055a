import { describe, expect, it } from "vitest";
import { waitForDatabase } from "./wait";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** A fake clock: sleeping moves it. */
function clock() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    monotonic: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
  };
}

describe("waitForDatabase (start-up on an unreachable database)", () => {
  it("retries an outage with growing delays, logs one line, and resolves when the database answers", async () => {
    const c = clock();
    const lines: string[] = [];
    let calls = 0;
    await waitForDatabase({
      attempt: async () => {
        if (++calls < 6) throw refused();
      },
      maxWaitMs: 30_000,
      log: (l) => lines.push(l),
      target: "DATABASE_URL (db:5432/app)",
      ...c,
    });
    expect(calls).toBe(6);
    expect(c.sleeps).toEqual([250, 500, 1000, 2000, 4000]);
    expect(lines).toEqual(["database unreachable at DATABASE_URL (db:5432/app); retrying with backoff for up to 30 s"]);
  });

  it("gives up after maxWaitMs with the last error, never sleeping past the deadline", async () => {
    const c = clock();
    const err = await waitForDatabase({ attempt: async () => Promise.reject(refused()), maxWaitMs: 3_000, log: () => {}, target: "x", ...c }).catch((e) => e);
    expect(err.code).toBe("ECONNREFUSED");
    expect(c.sleeps.reduce((a, b) => a + b, 0)).toBe(3_000);
    expect(c.sleeps.at(-1)).toBeLessThanOrEqual(5_000);
  });

  it("does not retry what waiting cannot fix (bad password, missing database)", async () => {
    const c = clock();
    const lines: string[] = [];
    const auth = Object.assign(new Error('password authentication failed for user "x"'), { code: "28P01" });
    await expect(waitForDatabase({ attempt: async () => Promise.reject(auth), maxWaitMs: 30_000, log: (l) => lines.push(l), target: "x", ...c })).rejects.toBe(auth);
    expect(c.sleeps).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("with maxWaitMs 0 tries once", async () => {
    const c = clock();
    let calls = 0;
    await expect(
      waitForDatabase({ attempt: async () => { calls++; throw refused(); }, maxWaitMs: 0, log: () => {}, target: "x", ...c }),
    ).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(calls).toBe(1);
  });

  it("caps the delay at 5 s", async () => {
    const c = clock();
    await waitForDatabase({ attempt: async () => Promise.reject(refused()), maxWaitMs: 60_000, log: () => {}, target: "x", ...c }).catch(() => {});
    expect(Math.max(...c.sleeps)).toBe(5_000);
  });
});
