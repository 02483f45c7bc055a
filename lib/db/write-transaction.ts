import { db } from "./client";
import type { Prisma } from "./generated/client";

/**
 * Options of every Admin mutation's transaction. Prisma's defaults (2 s to get a connection, 5 s to
 * finish) fail requests during a burst that merely queues for the pool; waiting longer is better.
 */
export const TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/** Result of every Admin mutation: messages (empty on success) and the record (null on failure). */
export interface Payload<T> {
  errors: string[];
  record: T | null;
}

export const failure = <T>(message: string): Payload<T> => ({ errors: [message], record: null });
export const success = <T>(record: T): Payload<T> => ({ errors: [], record });

/** Whether err is a unique violation, optionally of the named constraint/index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; meta?: unknown; message?: unknown };
  if (e.code !== "P2002") return false;
  if (!constraint) return true;
  // Driver adapters report the index inside meta; older engines in the message. Look in both.
  return JSON.stringify(e.meta ?? {}).includes(constraint) || String(e.message ?? "").includes(constraint);
}

/** Thrown inside a dry run's transaction to roll it back, carrying the payload out. */
class DryRunRollback<T> extends Error {
  constructor(readonly payload: Payload<T>) {
    super("dry run");
  }
}

/**
 * Runs a write verb's transaction. With `dryRun`, every check and write runs as usual and the
 * transaction is then rolled back: the caller sees exactly what would change, and nothing does.
 */
export async function writeTransaction<T>(
  options: { dryRun?: boolean },
  fn: (tx: Prisma.TransactionClient) => Promise<Payload<T>>,
): Promise<Payload<T>> {
  if (!options.dryRun) return db().$transaction(fn, TX_OPTIONS);
  try {
    await db().$transaction(async (tx) => {
      throw new DryRunRollback(await fn(tx));
    }, TX_OPTIONS);
  } catch (err) {
    if (err instanceof DryRunRollback) return err.payload as Payload<T>;
    throw err;
  }
  throw new Error("unreachable: a dry run always rolls back");
}
