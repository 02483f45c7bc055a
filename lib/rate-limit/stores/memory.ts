// One process's limiter state, for the embedded deployment (and as the fallback while a shared
// store is unreachable). Time comes from the caller, so tests drive it with lib/clock.
import { bucketBalance, pruneLeases, SlidingLog, type Bucket } from "../algorithms";
import type { AdmitRequest, AdmitResult, CompleteRequest, CompleteResult, Limits, OperationType, RateLimitStore } from "../types";

interface CredentialState {
  windows: Record<OperationType, SlidingLog>;
  leases: Map<string, number>;
  bucket?: Bucket;
}

// Idle credentials are dropped every SWEEP_EVERY calls so the map does not grow without bound.
const SWEEP_EVERY = 1000;

export class MemoryStore implements RateLimitStore {
  readonly kind = "memory";
  private readonly states = new Map<string, CredentialState>();
  private calls = 0;

  private state(key: string): CredentialState {
    let s = this.states.get(key);
    if (!s) {
      s = { windows: { mutations: new SlidingLog(), queries: new SlidingLog() }, leases: new Map() };
      this.states.set(key, s);
    }
    return s;
  }

  async admit(req: AdmitRequest): Promise<AdmitResult> {
    const { now, limits } = req;
    this.maybeSweep(now, limits);
    const s = this.state(req.key);
    const window = s.windows[req.operationType];
    window.prune(now, limits.windowMs);
    pruneLeases(s.leases, now);
    const balanceMs = bucketBalance(s.bucket, now, limits);
    const limit = limits.perMinute[req.operationType];

    let denial: AdmitResult["denial"] = null;
    if (req.enforce) {
      if (window.length >= limit) denial = "per_minute";
      else if (s.leases.size >= limits.maxInFlight) denial = "active_operations";
      else if (balanceMs <= 0) denial = "runtime";
    }
    if (!denial) {
      window.insert(now);
      s.leases.set(req.leaseId, now + limits.leaseTtlMs);
    }
    return {
      admitted: !denial,
      denial,
      now,
      windowCount: window.length,
      windowFreeAt: window.freeAt(limit, limits.windowMs),
      active: s.leases.size,
      balanceMs,
    };
  }

  async complete(req: CompleteRequest): Promise<CompleteResult> {
    const { now, limits } = req;
    const s = this.state(req.key);
    s.leases.delete(req.leaseId);
    pruneLeases(s.leases, now);
    const balanceMs = bucketBalance(s.bucket, now, limits) - req.durationMs;
    s.bucket = { balanceMs, at: now };
    return { now, active: s.leases.size, balanceMs };
  }

  private maybeSweep(now: number, limits: Limits): void {
    if (++this.calls % SWEEP_EVERY) return;
    for (const [key, s] of this.states) {
      pruneLeases(s.leases, now);
      s.windows.mutations.prune(now, limits.windowMs);
      s.windows.queries.prune(now, limits.windowMs);
      // A bucket in debt must be remembered; a full one is the same as no bucket.
      const idle =
        !s.leases.size &&
        !s.windows.mutations.length &&
        !s.windows.queries.length &&
        bucketBalance(s.bucket, now, limits) >= limits.runtimeBudgetMs;
      if (idle) this.states.delete(key);
    }
  }

  /** Number of credentials with state (tests check that idle ones are dropped). */
  get size(): number {
    return this.states.size;
  }
}
