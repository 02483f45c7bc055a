// Per-request batching of the lookups a resolver makes for each parent (N+1 otherwise): a page of
// 100 subscriptions with plan, user and payments costs one statement per kind, however many rows or
// aliases ask. DataLoader (graphql's reference batcher) collects the keys requested in one tick of
// resolvers and caches per request, so ten aliases of the same page share one lookup.
import DataLoader from "dataloader";
import type { MembershipPlan, Payment, User } from "../db/generated/client";
import { findPlans } from "../membership/find-plans";
import { findUsers } from "../membership/find-users";
import { listPaymentsOfSubscriptions } from "../membership/list-payments";

export interface AdminLoaders {
  /** The school's plans by id (another school's id loads null). */
  plan: DataLoader<string, MembershipPlan | null>;
  /** Users by id: only ids read from the school's own rows are asked for. */
  user: DataLoader<string, User | null>;
  /** Payments by subscription id, oldest first. */
  payments: DataLoader<string, Payment[]>;
}

/** Largest IN list per statement: pages hold at most 100 rows, aliases may ask for more. */
const MAX_BATCH = 500;

export function createAdminLoaders(options: { schoolId: string }): AdminLoaders {
  const { schoolId } = options;
  return {
    plan: new DataLoader(
      async (ids) => {
        const found = await findPlans({ schoolId, ids });
        return ids.map((id) => found.get(id) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    user: new DataLoader(
      async (ids) => {
        const found = await findUsers({ ids });
        return ids.map((id) => found.get(id) ?? null);
      },
      { maxBatchSize: MAX_BATCH },
    ),
    payments: new DataLoader(
      async (ids) => {
        const found = await listPaymentsOfSubscriptions({ subscriptionIds: ids });
        return ids.map((id) => found.get(id) ?? []);
      },
      { maxBatchSize: MAX_BATCH },
    ),
  };
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
