// The contract between the limiter (lib/rate-limit/limiter.ts) and its stores.
// A store makes each decision in one atomic step (one Lua script on Redis), so the three
// limiters cost two round trips per operation: one to admit, one to release and charge.

/** Per-minute counters are kept separately for these two operation types. */
export type OperationType = "mutations" | "queries";

/** Which limiter refused an operation. */
export type Denial = "per_minute" | "active_operations" | "runtime";

export interface Limits {
  /** Per-minute request limits per credential and operation type. */
  perMinute: Record<OperationType, number>;
  /** Length of the sliding window, and the refill period of the runtime bucket. */
  windowMs: number;
  /** Operations in flight per credential. */
  maxInFlight: number;
  /** Execution-time budget (ms) per window; the bucket refills at runtimeBudgetMs / windowMs per ms. */
  runtimeBudgetMs: number;
  /** A lease nobody releases (crashed instance) stops counting after this long. */
  leaseTtlMs: number;
}

export interface AdmitRequest {
  /** Credential key, e.g. `api_key:<uuid>`. */
  key: string;
  operationType: OperationType;
  /** Unique per operation: the in-flight lease and the window member. */
  leaseId: string;
  /** When false, nothing is refused but the operation is still counted. */
  enforce: boolean;
  limits: Limits;
  /** The caller's clock (ms). Redis stores use Redis TIME instead (unless built with a caller clock for tests). */
  now: number;
}

/** Limiter state as one store saw it at `now`. */
export interface StoreSnapshot {
  /** Store time (ms) of the decision. */
  now: number;
  /** Requests of the operation's type in the window, this one included when admitted. */
  windowCount: number;
  /**
   * When the window admits one more request (ms): the time the entry at index
   * max(0, windowCount - limit) leaves. Null when the window is empty.
   */
  windowFreeAt: number | null;
  /** Leases currently held, this one included when admitted. */
  active: number;
  /** Runtime bucket balance in ms; negative while in debt. */
  balanceMs: number;
}

export interface AdmitResult extends StoreSnapshot {
  admitted: boolean;
  denial: Denial | null;
}

export interface CompleteRequest {
  key: string;
  leaseId: string;
  /** Measured server-side execution time, charged to the runtime bucket. */
  durationMs: number;
  limits: Limits;
  now: number;
}

export interface CompleteResult {
  now: number;
  active: number;
  balanceMs: number;
}

export interface RateLimitStore {
  /** "memory", "redis" or "kv": reported in logs. */
  readonly kind: string;
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /** Releases the lease (idempotent) and charges the duration. */
  complete(request: CompleteRequest): Promise<CompleteResult>;
  /** Resolves when a shared store answers (health checks); stores in process have none. */
  ping?(): Promise<void>;
  close?(): Promise<void>;
}
