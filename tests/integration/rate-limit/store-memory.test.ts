import { describe, expect, it } from "vitest";
import { MemoryStore } from "@/lib/rate-limit/stores/memory";
import { DEFAULT_LIMITS } from "@/lib/rate-limit/config";
import { credential, harness, storeBehaviour, T0 } from "./store-behaviour";

storeBehaviour("memory", () => new MemoryStore());

describe("memory store housekeeping", () => {
  it("drops idle credentials so the process does not grow without bound", async () => {
    const store = new MemoryStore();
    const h = harness(store, DEFAULT_LIMITS);
    for (let i = 0; i < 999; i++) {
      const a = await h.limiter.begin({ credential: credential(), operationType: "queries" });
      if (a.admitted) await a.finish(0);
    }
    expect(store.size).toBe(999);
    h.at(T0 + 61_000);
    await h.limiter.begin({ credential: credential(), operationType: "queries" }); // the 1000th call sweeps
    expect(store.size).toBe(1);
  });
});
