// The three limiters per credential, over one store: admit (per-minute window, operations in
// flight, runtime bucket in that order), then release and charge the measured execution time.
import { randomUUID } from "node:crypto";
import { now as clockNow } from "../clock";
import { credentialKey, type Credential } from "../credentials/credential";
import { FairGate } from "../db/fair-gate";
import type { RateLimitState } from "./state";
import type { AdmitResult, CompleteResult, Limits, OperationType, RateLimitStore } from "./types";
import { refusal, type RateLimitError } from "./wire";

export interface RateLimiterOptions {
  store: RateLimitStore;
  limits: Limits;
  /** Operations running longer are answered with a timeout and their slot released. */
  operationTimeoutMs?: number;
  /**
   * Operations of one credential executing at once; its other admitted (in-flight) operations wait
   * their turn, and the wait is not charged to the runtime budget. Unset: no cap. The server has one
   * thread: ten heavy operations of one key interleaved would make every other request wait behind
   * all ten at each of its steps (docs/decisions.md, "Fairness between credentials").
   */
  maxExecuting?: number;
  /** Caller clock in ms (the memory store's time); defaults to lib/clock. */
  clock?: () => number;
}

export type Admission =
  | {
      admitted: true;
      state: RateLimitState;
      /** Releases the slot and charges the duration; later calls return the first result. */
      finish(durationMs: number): Promise<RateLimitState>;
    }
  | { admitted: false; state: RateLimitState; error: RateLimitError };

export type RunOutcome<T> =
  | { outcome: "completed"; value: T; state: RateLimitState; durationMs: number }
  | { outcome: "failed"; error: unknown; state: RateLimitState; durationMs: number }
  | { outcome: "aborted"; state: RateLimitState; durationMs: number }
  | { outcome: "timed_out"; state: RateLimitState; durationMs: number }
  | { outcome: "refused"; error: RateLimitError; state: RateLimitState };

/** The reason an operation's signal aborts: it ran past its time limit or its client left. */
export class OperationCancelledError extends Error {
  override name = "OperationCancelledError";
  constructor(readonly reason: "timed_out" | "aborted") {
    super(reason === "timed_out" ? "The operation ran past its time limit and was stopped." : "The client closed the request.");
  }
}

export class RateLimiter {
  readonly store: RateLimitStore;
  readonly limits: Limits;
  readonly operationTimeoutMs: number;
  private readonly executing?: FairGate;
  private readonly clock: () => number;

  constructor(options: RateLimiterOptions) {
    this.store = options.store;
    this.limits = options.limits;
    this.operationTimeoutMs = options.operationTimeoutMs ?? Math.max(1, options.limits.leaseTtlMs - 10_000);
    this.executing = options.maxExecuting ? new FairGate({ permits: Number.MAX_SAFE_INTEGER, share: options.maxExecuting }) : undefined;
    this.clock = options.clock ?? (() => clockNow().getTime());
  }

  private state(credential: Credential, operationType: OperationType, admit: AdmitResult, after?: CompleteResult): RateLimitState {
    return {
      enforced: credential.enforceLimits,
      now: after?.now ?? admit.now,
      operationType,
      perMinute: {
        limit: this.limits.perMinute[operationType],
        used: admit.windowCount,
        windowMs: this.limits.windowMs,
        freeAt: admit.windowFreeAt,
      },
      activeOperations: { limit: this.limits.maxInFlight, active: after?.active ?? admit.active },
      runtime: { limitMs: this.limits.runtimeBudgetMs, balanceMs: after?.balanceMs ?? admit.balanceMs, limits: this.limits },
    };
  }

  async begin(options: { credential: Credential; operationType: OperationType }): Promise<Admission> {
    const { credential, operationType } = options;
    const key = credentialKey(credential);
    const leaseId = randomUUID();
    const admit = await this.store.admit({
      key,
      operationType,
      leaseId,
      enforce: credential.enforceLimits,
      limits: this.limits,
      now: this.clock(),
    });
    const state = this.state(credential, operationType, admit);
    if (!admit.admitted) return { admitted: false, state, error: refusal(admit.denial!, state) };
    let finished: Promise<RateLimitState> | undefined;
    return {
      admitted: true,
      state,
      finish: (durationMs) => {
        finished ??= this.store
          .complete({ key, leaseId, durationMs: Math.max(0, durationMs), limits: this.limits, now: this.clock() })
          .then((after) => this.state(credential, operationType, admit, after));
        return finished;
      },
    };
  }

  /**
   * Runs `execute` under the limits: refused operations never start; the slot is released and the
   * measured time charged when it completes, fails, the client aborts (`signal`) or it times out.
   * After an abort or a timeout the caller gets its answer at once and the signal given to
   * `execute` aborts, so the execution stops starting new work (resolvers, statements); work
   * already running (one statement, a transaction being committed) finishes in the background.
   */
  async run<T>(
    options: { credential: Credential; operationType: OperationType; signal?: AbortSignal },
    execute: (signal: AbortSignal) => Promise<T> | T,
  ): Promise<RunOutcome<T>> {
    const admission = await this.begin(options);
    if (!admission.admitted) return { outcome: "refused", error: admission.error, state: admission.state };

    let executionStarted: number | undefined;
    type Settled = { kind: "completed"; value: T } | { kind: "failed"; error: unknown } | { kind: "aborted" } | { kind: "timed_out" };
    // The first of completion, failure, time-out and client abort settles the operation.
    let settle!: (s: Settled) => void;
    const outcome = new Promise<Settled>((resolve) => (settle = resolve));
    const { signal } = options;
    const cancel = new AbortController();
    const lane = credentialKey(options.credential);
    const start = async (release: (() => void) | undefined): Promise<Settled> => {
      executionStarted = performance.now();
      try {
        return { kind: "completed", value: await execute(cancel.signal) };
      } finally {
        release?.();
      }
    };
    const timer = setTimeout(() => settle({ kind: "timed_out" }), this.operationTimeoutMs);
    const onAbort = signal ? () => settle({ kind: "aborted" }) : undefined;
    if (signal && onAbort) {
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    }
    // Under its share the credential's turn comes at once, without a promise to wait on.
    const now = this.executing?.tryAcquire(lane, cancel.signal);
    const execution = now || !this.executing ? start(now) : this.executing.acquire(lane, cancel.signal).then(start);
    execution.then(settle, (error: unknown) => settle({ kind: "failed", error }));
    const settled = await outcome;
    clearTimeout(timer);
    if (onAbort) signal!.removeEventListener("abort", onAbort);
    if (settled.kind === "timed_out" || settled.kind === "aborted") {
      // The execution now fails wherever it next starts work; nobody awaits it any more.
      cancel.abort(new OperationCancelledError(settled.kind));
    }
    // Charged from the start of execution: waiting for the credential's turn costs it nothing.
    const durationMs = executionStarted === undefined ? 0 : performance.now() - executionStarted;
    const state = await admission.finish(durationMs);
    switch (settled.kind) {
      case "completed":
        return { outcome: "completed", value: settled.value, state, durationMs };
      case "failed":
        return { outcome: "failed", error: settled.error, state, durationMs };
      default:
        return { outcome: settled.kind, state, durationMs };
    }
  }
}
