// Admission to the database's connections, shared fairly between credentials.
//
// Every statement outside a transaction, and every transaction for its whole life, holds one
// permit; there are as many permits as connections (the pg pool's size, 1 for PGlite). Two rules:
//  - share: one lane (credential) holds at most `share` permits at a time, so the others always
//    have `permits - share` connections between them however hard one key pushes;
//  - turns: when a permit frees, it goes to the next lane in round-robin order that is under its
//    share, the oldest waiter of that lane first. A lane with a thousand queued statements gets
//    one turn like a lane with one, so on a single connection (PGlite) a victim waits for at most
//    one statement per other busy lane, never for another key's whole queue.
// The shared lane "" (pages, OAuth, health, background work: no credential) takes turns like any
// lane but is not capped by the share: it is many unrelated callers, not one credential.
// A waiter whose lane is cancelled (the operation timed out) leaves the queue at once.

export type Release = () => void;

export class DbWorkCancelledError extends Error {
  override name = "DbWorkCancelledError";
  constructor() {
    super("Database work refused: the operation it belongs to was cancelled (timed out or its client left).");
  }
}

interface Waiter {
  grant: (release: Release) => void;
  fail: (error: Error) => void;
  unlink?: () => void;
}

export interface GateOptions {
  /** Connections available (permits). */
  permits: number;
  /** Permits one credential lane may hold at once (1 ≤ share ≤ permits). */
  share: number;
}

export interface GateSnapshot {
  permits: number;
  share: number;
  inUse: number;
  /** Permits held per lane (lanes holding none are left out). */
  held: Record<string, number>;
  /** Waiters per lane (lanes with none are left out). */
  waiting: Record<string, number>;
}

export const SHARED_LANE_KEY = "";

export class FairGate {
  readonly permits: number;
  readonly share: number;
  private inUse = 0;
  private readonly held = new Map<string, number>();
  // Insertion order is the turn order: a lane served goes to the back.
  private readonly queues = new Map<string, Waiter[]>();
  private dispatchScheduled = false;

  constructor(options: GateOptions) {
    this.permits = Math.max(1, Math.floor(options.permits));
    this.share = Math.min(this.permits, Math.max(1, Math.floor(options.share)));
  }

  private capOf(lane: string): number {
    return lane === SHARED_LANE_KEY ? this.permits : this.share;
  }

  private canTake(lane: string): boolean {
    return this.inUse < this.permits && (this.held.get(lane) ?? 0) < this.capOf(lane);
  }

  /**
   * A permit for `lane` at once when acquire() would grant one without waiting, else undefined (the
   * caller then waits in acquire()). Saves the hot path a promise and a turn of the microtask queue.
   */
  tryAcquire(lane: string, signal?: AbortSignal): Release | undefined {
    if (signal?.aborted) return undefined;
    // A free permit no queued waiter may take (each is held back by its share) jumps no one.
    return !this.queues.has(lane) && this.canTake(lane) && !this.anyWaiterEligible() ? this.take(lane) : undefined;
  }

  /** Resolves with a release function once `lane` may use a connection. */
  acquire(lane: string, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new DbWorkCancelledError());
    const now = this.tryAcquire(lane);
    if (now) return Promise.resolve(now);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { grant: resolve, fail: reject };
      let queue = this.queues.get(lane);
      if (!queue) this.queues.set(lane, (queue = []));
      queue.push(waiter);
      if (signal) {
        const onAbort = () => {
          this.remove(lane, waiter);
          reject(new DbWorkCancelledError());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        waiter.unlink = () => signal.removeEventListener("abort", onAbort);
      }
      if (this.inUse < this.permits) this.scheduleDispatch();
    });
  }

  /** Runs `fn` holding a permit of `lane`. */
  async run<T>(lane: string, signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(lane, signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  snapshot(): GateSnapshot {
    return {
      permits: this.permits,
      share: this.share,
      inUse: this.inUse,
      held: Object.fromEntries(this.held),
      waiting: Object.fromEntries([...this.queues].map(([lane, q]) => [lane, q.length])),
    };
  }

  private take(lane: string): Release {
    this.inUse++;
    this.held.set(lane, (this.held.get(lane) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      const n = (this.held.get(lane) ?? 1) - 1;
      if (n > 0) this.held.set(lane, n);
      else this.held.delete(lane);
      if (this.queues.size > 0) this.scheduleDispatch();
    };
  }

  private anyWaiterEligible(): boolean {
    for (const lane of this.queues.keys()) if (this.canTake(lane)) return true;
    return false;
  }

  /**
   * Freed permits are handed out on the next turn of the event loop, not in the release's own
   * continuation: with PGlite every statement runs on this thread, and a queue that went straight
   * from one statement to the next would never let Node read a new request (another key's, or a
   * health check) until the queue was empty. Requests that arrive meanwhile join the turn order.
   */
  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private remove(lane: string, waiter: Waiter): void {
    const queue = this.queues.get(lane);
    if (!queue) return;
    const i = queue.indexOf(waiter);
    if (i >= 0) queue.splice(i, 1);
    if (queue.length === 0) this.queues.delete(lane);
    // A lane leaving can let another (previously behind it) in only if a permit is free, and
    // dispatch already served everyone eligible; nothing else to do.
  }

  private dispatch(): void {
    while (this.inUse < this.permits) {
      let served = false;
      for (const [lane, queue] of this.queues) {
        if (!this.canTake(lane)) continue;
        const waiter = queue.shift()!;
        // To the back of the turn order (or out, when its queue is empty).
        this.queues.delete(lane);
        if (queue.length > 0) this.queues.set(lane, queue);
        waiter.unlink?.();
        waiter.grant(this.take(lane));
        served = true;
        break;
      }
      if (!served) return;
    }
  }
}
