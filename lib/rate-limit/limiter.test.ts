import { describe, expect, it } from "vitest";
import type { Credential } from "../credentials/credential";
import { DEFAULT_LIMITS } from "./config";
import { RateLimiter } from "./limiter";
import { MemoryStore } from "./stores/memory";

const credential = (id: string): Credential => ({ kind: "api_key", id, schoolId: "s", permissions: [], enforceLimits: true });
const tick = () => new Promise((r) => setImmediate(() => setImmediate(r)));

function latch() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("RateLimiter maxExecuting", () => {
  it("runs at most maxExecuting operations of one credential at once; the others wait their turn, other credentials do not", async () => {
    const limiter = new RateLimiter({ store: new MemoryStore(), limits: DEFAULT_LIMITS, maxExecuting: 2, clock: () => 0 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof latch>>();
    const op = (who: string, n: number) => {
      const name = `${who}${n}`;
      gates.set(name, latch());
      return limiter.run({ credential: credential(who), operationType: "queries" }, async () => {
        started.push(name);
        await gates.get(name)!.opened;
        return name;
      });
    };
    const a = [1, 2, 3, 4].map((n) => op("a", n));
    await tick();
    const b = op("b", 1);
    await tick();
    expect(started).toEqual(["a1", "a2", "b1"]);
    gates.get("a1")!.open();
    await a[0];
    await tick();
    expect(started).toEqual(["a1", "a2", "b1", "a3"]);
    for (const g of gates.values()) g.open();
    const outcomes = await Promise.all([...a, b]);
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(5).fill("completed"));
    // All four of a's were admitted (in flight) although two waited.
    expect(outcomes[3]!.state.activeOperations.limit).toBe(10);
  });

  it("an operation timed out while waiting for its turn never starts", async () => {
    const limiter = new RateLimiter({ store: new MemoryStore(), limits: DEFAULT_LIMITS, maxExecuting: 1, operationTimeoutMs: 50, clock: () => 0 });
    const hold = latch();
    let secondStarted = false;
    const first = limiter.run({ credential: credential("a"), operationType: "queries" }, () => hold.opened);
    const second = await limiter.run({ credential: credential("a"), operationType: "queries" }, async () => {
      secondStarted = true;
    });
    expect(second.outcome).toBe("timed_out");
    hold.open();
    await first;
    await tick();
    expect(secondStarted).toBe(false);
  });
});
