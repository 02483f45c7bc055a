// Wraps a shared store (Redis, KV). Decision when it is unreachable: fail OPEN to per-instance
// limiting. Each call waits at most `timeoutMs`; after a failure the instance uses its own
// in-memory store for `cooldownMs` before trying the shared store again, so an outage adds at most
// one timeout to one request per cool-down, and limits still hold per instance meanwhile.
import type { AdmitRequest, AdmitResult, CompleteRequest, CompleteResult, RateLimitStore } from "../types";
import { MemoryStore } from "./memory";

export interface ResilientStoreOptions {
  shared: RateLimitStore;
  timeoutMs?: number;
  cooldownMs?: number;
  /** Where outages are reported (once per outage). */
  log?: (message: string) => void;
  /** Monotonic time source for the cool-down (tests pass their own). */
  monotonic?: () => number;
}

export class StoreTimeoutError extends Error {
  override name = "StoreTimeoutError";
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeoutError(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export class ResilientStore implements RateLimitStore {
  readonly kind: string;
  readonly fallback = new MemoryStore();
  private readonly shared: RateLimitStore;
  private readonly timeoutMs: number;
  private readonly cooldownMs: number;
  private readonly log: (message: string) => void;
  private readonly monotonic: () => number;
  private downUntil = 0;
  private down = false;
  // Leases admitted by the fallback are released there too.
  private readonly localLeases = new Set<string>();

  constructor(options: ResilientStoreOptions) {
    this.shared = options.shared;
    this.kind = options.shared.kind;
    this.timeoutMs = options.timeoutMs ?? 300;
    this.cooldownMs = options.cooldownMs ?? 5000;
    this.log = options.log ?? ((m) => console.warn(m));
    this.monotonic = options.monotonic ?? (() => performance.now());
  }

  /** True while the shared store is considered unreachable. */
  get degraded(): boolean {
    return this.down;
  }

  private failed(err: unknown): void {
    this.downUntil = this.monotonic() + this.cooldownMs;
    if (!this.down) {
      this.down = true;
      const reason = err instanceof Error ? err.message : String(err);
      this.log(`rate-limit: ${this.kind} store unreachable (${reason}); limiting per instance, retrying in ${this.cooldownMs} ms`);
    }
  }

  private recovered(): void {
    if (this.down) {
      this.down = false;
      this.log(`rate-limit: ${this.kind} store reachable again`);
    }
  }

  async admit(req: AdmitRequest): Promise<AdmitResult> {
    if (this.monotonic() >= this.downUntil) {
      try {
        const result = await withDeadline(this.shared.admit(req), this.timeoutMs);
        this.recovered();
        return result;
      } catch (err) {
        this.failed(err);
      }
    }
    const result = await this.fallback.admit(req);
    if (result.admitted) this.localLeases.add(req.leaseId);
    return result;
  }

  async complete(req: CompleteRequest): Promise<CompleteResult> {
    if (this.localLeases.delete(req.leaseId)) return this.fallback.complete(req);
    try {
      const result = await withDeadline(this.shared.complete(req), this.timeoutMs);
      this.recovered();
      return result;
    } catch (err) {
      // The shared lease expires on its own (lease TTL); charge the time locally meanwhile.
      this.failed(err);
      return this.fallback.complete(req);
    }
  }

  /** Checks the shared store now (health checks); a failure starts per-instance limiting like a call would. */
  async ping(): Promise<void> {
    try {
      await withDeadline(this.shared.ping?.() ?? Promise.resolve(), this.timeoutMs);
      this.recovered();
    } catch (err) {
      this.failed(err);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.shared.close?.();
  }
}
