import { describe, expect, it } from "vitest";
import { DbWorkCancelledError, FairGate, SHARED_LANE_KEY, type Release } from "./fair-gate";

/** Lets pending promise callbacks run. */
const tick = () => new Promise((r) => setImmediate(() => setImmediate(r)));

function track(gate: FairGate, lane: string, log: string[], signal?: AbortSignal) {
  let release: Release | undefined;
  const settled = gate.acquire(lane, signal).then(
    (r) => {
      log.push(lane);
      release = r;
    },
    (e: Error) => log.push(`${lane}:${e.name}`),
  );
  return { settled, release: () => release!() };
}

describe("FairGate", () => {
  it("gives one lane at most its share; other lanes use the rest at once", async () => {
    const gate = new FairGate({ permits: 10, share: 4 });
    const log: string[] = [];
    const abuser = Array.from({ length: 9 }, () => track(gate, "a", log));
    await tick();
    expect(log).toEqual(["a", "a", "a", "a"]);
    expect(gate.snapshot()).toMatchObject({ inUse: 4, held: { a: 4 }, waiting: { a: 5 } });
    const victim = track(gate, "b", log);
    const health = track(gate, SHARED_LANE_KEY, log);
    await tick();
    expect(log.slice(4)).toEqual(["b", SHARED_LANE_KEY]);
    victim.release();
    health.release();
    abuser[0]!.release();
    await tick();
    // A permit freed by the abuser goes back to it (nobody else waits), still within its share.
    expect(gate.snapshot()).toMatchObject({ inUse: 4, held: { a: 4 }, waiting: { a: 4 } });
  });

  it("hands freed permits out in turns: a long queue of one lane does not starve another (one connection)", async () => {
    const gate = new FairGate({ permits: 1, share: 1 });
    const log: string[] = [];
    const first = track(gate, "a", log);
    await tick();
    const queued = Array.from({ length: 5 }, () => track(gate, "a", log));
    const victim = track(gate, "b", log);
    const other = track(gate, "c", log);
    await tick();
    // Each holder releases as soon as it is served; the order served is the turn order.
    const holders = new Map([["b", [victim]], ["c", [other]], ["a", [first, ...queued]]]);
    for (let served = 1; served <= 8; served++) {
      const lane = log[served - 1]!;
      holders.get(lane)!.shift()!.release();
      await tick();
    }
    // a queued first, so its second statement goes first; then b and c get their turns before a's
    // third, not after all six.
    expect(log).toEqual(["a", "a", "b", "c", "a", "a", "a", "a"]);
  });

  it("the shared lane (no credential) is not capped by the share but takes turns", async () => {
    const gate = new FairGate({ permits: 3, share: 1 });
    const log: string[] = [];
    const shared = Array.from({ length: 3 }, () => track(gate, SHARED_LANE_KEY, log));
    await tick();
    expect(gate.snapshot()).toMatchObject({ inUse: 3, held: { [SHARED_LANE_KEY]: 3 } });
    track(gate, SHARED_LANE_KEY, log);
    track(gate, "k", log);
    await tick();
    shared[0]!.release();
    await tick();
    // The shared lane queued first, so it gets this turn; the key gets the next.
    expect(log.slice(3)).toEqual([SHARED_LANE_KEY]);
    shared[1]!.release();
    await tick();
    expect(log.slice(3)).toEqual([SHARED_LANE_KEY, "k"]);
  });

  it("a cancelled lane's waiters leave the queue at once, and it may not start new work", async () => {
    const gate = new FairGate({ permits: 1, share: 1 });
    const log: string[] = [];
    const holder = track(gate, "x", log);
    await tick();
    const op = new AbortController();
    const waiters = Array.from({ length: 3 }, () => track(gate, "a", log, op.signal));
    const victim = track(gate, "b", log);
    await tick();
    expect(gate.snapshot().waiting).toEqual({ a: 3, b: 1 });
    op.abort();
    await Promise.all(waiters.map((w) => w.settled));
    expect(gate.snapshot().waiting).toEqual({ b: 1 });
    await expect(gate.acquire("a", op.signal)).rejects.toBeInstanceOf(DbWorkCancelledError);
    holder.release();
    await victim.settled;
    expect(log).toEqual(["x", "a:DbWorkCancelledError", "a:DbWorkCancelledError", "a:DbWorkCancelledError", "b"]);
  });

  it("a release counts once", async () => {
    const gate = new FairGate({ permits: 2, share: 2 });
    const release = await gate.acquire("a");
    release();
    release();
    expect(gate.snapshot()).toMatchObject({ inUse: 0, held: {} });
  });
});
