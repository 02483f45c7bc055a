// A Prisma driver adapter around the real one (pg or PGlite) that passes every connection use
// through the fair gate (lib/db/fair-gate.ts) in the lane of the current async context
// (lib/db/lane.ts): a statement outside a transaction holds a permit while it runs, a transaction
// from its start to its commit or rollback. Statements inside a transaction run on the connection
// the transaction already holds and are not gated again.
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type { FairGate, Release } from "./fair-gate";
import { currentDbLane, SHARED_LANE } from "./lane";

/**
 * Seen for each statement sent (tests count statements with it). `name`: the statement is prepared
 * under this name (lib/db/raw.ts), so it runs with a plan Postgres may cache.
 */
export type StatementListener = (statement: { lane: string; sql: string; args: unknown[]; inTransaction: boolean; name?: string }) => void;

export interface GateHooks {
  gate: FairGate;
  listeners: Set<StatementListener>;
}

function notify(hooks: GateHooks, query: SqlQuery, inTransaction: boolean, lane = currentDbLane()?.key ?? SHARED_LANE): void {
  for (const listener of hooks.listeners) listener({ lane, sql: query.sql, args: query.args, inTransaction });
}

async function gated<T>(hooks: GateHooks, fn: () => Promise<T>): Promise<T> {
  const lane = currentDbLane();
  return hooks.gate.run(lane?.key ?? SHARED_LANE, lane?.signal, fn);
}

class GatedTransaction implements Transaction {
  // Savepoints exist only when the driver has them (Prisma checks for the methods).
  readonly createSavepoint?: (name: string) => Promise<void>;
  readonly rollbackToSavepoint?: (name: string) => Promise<void>;
  readonly releaseSavepoint?: (name: string) => Promise<void>;

  constructor(
    private readonly inner: Transaction,
    private readonly release: Release,
    private readonly hooks: GateHooks,
    private readonly lane: string,
  ) {
    if (inner.createSavepoint) this.createSavepoint = (name) => inner.createSavepoint!(name);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = (name) => inner.rollbackToSavepoint!(name);
    if (inner.releaseSavepoint) this.releaseSavepoint = (name) => inner.releaseSavepoint!(name);
  }
  get provider() {
    return this.inner.provider;
  }
  get adapterName() {
    return this.inner.adapterName;
  }
  get options() {
    return this.inner.options;
  }
  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    notify(this.hooks, query, true, this.lane);
    return this.inner.queryRaw(query);
  }
  executeRaw(query: SqlQuery): Promise<number> {
    notify(this.hooks, query, true, this.lane);
    return this.inner.executeRaw(query);
  }
  async commit(): Promise<void> {
    try {
      await this.inner.commit();
    } finally {
      this.release();
    }
  }
  async rollback(): Promise<void> {
    try {
      await this.inner.rollback();
    } finally {
      this.release();
    }
  }
}

class GatedAdapter implements SqlDriverAdapter {
  constructor(
    private readonly inner: SqlDriverAdapter,
    private readonly hooks: GateHooks,
  ) {}
  get provider() {
    return this.inner.provider;
  }
  get adapterName() {
    return this.inner.adapterName;
  }
  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return gated(this.hooks, () => {
      notify(this.hooks, query, false);
      return this.inner.queryRaw(query);
    });
  }
  executeRaw(query: SqlQuery): Promise<number> {
    return gated(this.hooks, () => {
      notify(this.hooks, query, false);
      return this.inner.executeRaw(query);
    });
  }
  executeScript(script: string): Promise<void> {
    return gated(this.hooks, () => this.inner.executeScript(script));
  }
  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const lane = currentDbLane();
    const key = lane?.key ?? SHARED_LANE;
    const release = await this.hooks.gate.acquire(key, lane?.signal);
    try {
      return new GatedTransaction(await this.inner.startTransaction(isolationLevel), release, this.hooks, key);
    } catch (err) {
      release();
      throw err;
    }
  }
  getConnectionInfo() {
    return this.inner.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }
  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

/** `factory`, with every adapter it connects gated. */
export function gatedAdapterFactory(factory: SqlDriverAdapterFactory, hooks: GateHooks): SqlDriverAdapterFactory {
  return {
    get provider() {
      return factory.provider;
    },
    get adapterName() {
      return factory.adapterName;
    },
    connect: async () => new GatedAdapter(await factory.connect(), hooks),
  };
}
