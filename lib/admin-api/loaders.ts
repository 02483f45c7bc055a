// Per-request batching of the lookups a resolver makes for each parent (N+1 otherwise): a page of
// 100 subscriptions with plan, user and payments costs one statement per kind, however many rows or
// aliases ask. DataLoader (graphql's reference batcher) collects the keys requested in one tick of
// resolvers and caches per request, so ten aliases of the same page share one lookup.
//
// The lookups return the wire shapes straight from named raw statements (lib/membership/wire-sql.ts),
// made once per request and shared by every row and alias that asks. Once a key's value has arrived,
// `load` returns it as a plain value, not a promise: the executor then completes that field without
// a promise, a microtask and async hooks per row (docs/benchmarks.md, "Fairness under abuse").
import DataLoader from "dataloader";
import { findPlanWires } from "../membership/find-plans";
import { findUserWires } from "../membership/find-users";
import { listPaymentWiresOfSubscriptions } from "../membership/list-payments";
import type { PaymentWire, PlanWire, UserWire } from "../membership/presenter";
import { settleDueSubscriptions } from "../membership/settle";

/** A batched, per-request lookup: the value itself once known, else a promise of it. */
export interface KnownLoader<V> {
  load(key: string): V | Promise<V>;
  /** Loads these keys (one batch), so later loads of them are plain values; never rejects. */
  prefetch(keys: Iterable<string>): Promise<void>;
}

export interface AdminLoaders {
  /** The school's plans by id (another school's id loads null). */
  plan: KnownLoader<PlanWire | null>;
  /** Users by id: only ids read from the school's own rows are asked for. */
  user: KnownLoader<UserWire | null>;
  /** Payments by subscription id, oldest first. */
  payments: KnownLoader<PaymentWire[]>;
  /**
   * settleDueSubscriptions for the school, once per request: every page of one request reads
   * after the same settle (aliased pages run concurrently and each used to send its own due check).
   */
  settle(options: { schoolId: string; now: Date }): Promise<unknown>;
}

/** `f` of a loaded value: at once when it is known, after it arrives when it is a promise. */
export function whenLoaded<V, R>(value: V | Promise<V>, f: (v: V) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Largest IN list per statement: pages hold at most 100 rows, aliases may ask for more. */
const MAX_BATCH = 500;

function knownLoader<V>(find: (ids: readonly string[]) => Promise<Map<string, V>>, missing: () => V): KnownLoader<V> {
  const known = new Map<string, V>();
  const loader = new DataLoader<string, V>(
    async (ids) => {
      const found = await find(ids);
      return ids.map((id) => {
        const value = found.get(id) ?? missing();
        known.set(id, value);
        return value;
      });
    },
    { maxBatchSize: MAX_BATCH },
  );
  return {
    load: (id) => (known.has(id) ? known.get(id)! : loader.load(id)),
    async prefetch(keys) {
      const wanted = [...new Set(keys)].filter((id) => !known.has(id));
      // A failed batch is left to the fields that ask: each reports it where it always did.
      if (wanted.length) await loader.loadMany(wanted);
    },
  };
}

export function createAdminLoaders(options: { schoolId: string }): AdminLoaders {
  const { schoolId } = options;
  let settled: Promise<unknown> | undefined;
  return {
    plan: knownLoader((ids) => findPlanWires({ schoolId, ids }), () => null),
    user: knownLoader((ids) => findUserWires({ ids }), () => null),
    payments: knownLoader((ids) => listPaymentWiresOfSubscriptions({ subscriptionIds: ids }), () => []),
    // Only the credential's school is ever settled here (the pages' schoolId is the same).
    settle: ({ now }) => (settled ??= settleDueSubscriptions({ schoolId, now })),
  };
}

/**
 * Before a page's rows go to the executor: reads the plans, users and payments its `nodes` select,
 * for all rows at once, so every row's fields complete from known values (no promise per row and
 * field; aliased pages of one request share the reads as before).
 */
export async function prefetchForRows(
  loaders: AdminLoaders,
  rows: readonly { id: string; planId: string; userId: string }[],
  selected: ReadonlySet<string>,
): Promise<void> {
  if (rows.length === 0) return;
  const reads: Promise<void>[] = [];
  if (selected.has("plan") || selected.has("isCancellable")) reads.push(loaders.plan.prefetch(rows.map((r) => r.planId)));
  if (selected.has("user")) reads.push(loaders.user.prefetch(rows.map((r) => r.userId)));
  if (selected.has("payments")) reads.push(loaders.payments.prefetch(rows.map((r) => r.id)));
  await Promise.all(reads);
}

// One set per GraphQL context (i.e. per request), made on first use: nothing is shared between
// requests, so a credential never sees another school's cached rows and nothing goes stale.
const perContext = new WeakMap<object, AdminLoaders>();

export function adminLoaders(context: { credential: { schoolId: string } }): AdminLoaders {
  let loaders = perContext.get(context);
  if (!loaders) {
    loaders = createAdminLoaders({ schoolId: context.credential.schoolId });
    perContext.set(context, loaders);
  }
  return loaders;
}
