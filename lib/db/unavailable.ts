// The one answer to "is this error the database being unavailable?", for every transport.
//
// An unavailable database is an operational state, not a bug: the request may succeed when retried
// in a few seconds (a failover, a restart, a saturated pool). Each transport turns it into a 503
// with Retry-After in its own format; everything else stays an internal error.
//
// Errors reach us in several wrappings: the pg driver's own (Node socket errors, "Connection
// terminated", Postgres SQLSTATEs), Prisma's driver-adapter wrapping (`meta.driverAdapterError.
// cause.kind` / `.code`), Prisma's own codes (P1001, P2024, P2028, ...) and PGlite's. We walk the
// chain (cause, meta.driverAdapterError) and look at each link.

/** Seconds a client is told to wait before retrying (the Retry-After header). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export type UnavailableReason =
  /** No connection: refused, reset, unreachable host, closed socket. */
  | "unreachable"
  /** No connection in time: the pool is exhausted or the server does not answer. */
  | "timeout"
  /** The server is shutting down or starting up (57P01, 57P02, 57P03), or refuses connections (53300). */
  | "shutdown"
  /** A read-only server: a failover promoted nothing yet, or we reached a standby (25006). */
  | "read_only"
  /** Serialization failure or deadlock that survived our retries (40001, 40P01, P2034). */
  | "conflict"
  /** The embedded database (PGlite) was closed or aborted. */
  | "closed";

export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
  readonly status = 503;
  readonly code = "SERVICE_UNAVAILABLE";
  readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
  constructor(
    readonly reason: UnavailableReason,
    options?: { cause?: unknown },
  ) {
    super(`The database is unavailable (${reason}); retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds`, options);
  }
}

// Prisma's own error codes (https://www.prisma.io/docs/orm/reference/error-reference).
const PRISMA_CODES: Record<string, UnavailableReason> = {
  P1001: "unreachable", // Can't reach database server
  P1002: "timeout", // Database server reached but timed out
  P1008: "timeout", // Operations timed out
  P1017: "unreachable", // Server has closed the connection
  P2024: "timeout", // Timed out fetching a new connection from the pool
  P2028: "timeout", // Transaction API error (could not start / expired while the server was gone)
  P2034: "conflict", // Write conflict or deadlock
};

// Driver adapter error kinds (@prisma/driver-adapter-utils).
const ADAPTER_KINDS: Record<string, UnavailableReason> = {
  DatabaseNotReachable: "unreachable",
  ConnectionClosed: "unreachable",
  TlsConnectionError: "unreachable",
  SocketTimeout: "timeout",
  TooManyConnections: "shutdown",
  TransactionWriteConflict: "conflict",
};

/** Postgres SQLSTATE → reason. Class 08 (connection exception) is handled by prefix. */
const SQLSTATES: Record<string, UnavailableReason> = {
  "57P01": "shutdown", // admin_shutdown
  "57P02": "shutdown", // crash_shutdown
  "57P03": "shutdown", // cannot_connect_now
  "53300": "shutdown", // too_many_connections
  "25006": "read_only", // read_only_sql_transaction
  "40001": "conflict", // serialization_failure
  "40P01": "conflict", // deadlock_detected
};

const ERRNO: Record<string, UnavailableReason> = {
  ECONNREFUSED: "unreachable",
  ECONNRESET: "unreachable",
  EPIPE: "unreachable",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  ENOTFOUND: "unreachable",
  EAI_AGAIN: "unreachable",
  ETIMEDOUT: "timeout",
};

// Messages of errors that carry no code: pg's client and pool, and PGlite.
const MESSAGES: [RegExp, UnavailableReason][] = [
  [/connection terminated|not queryable|client was closed|connection (?:is )?closed|server closed the connection/i, "unreachable"],
  [/can't reach database server/i, "unreachable"],
  [/timeout exceeded when trying to connect|connection timeout|timed out fetching a new connection/i, "timeout"],
  [/terminating connection due to administrator command|the database system is (?:shutting down|starting up|in recovery mode)/i, "shutdown"],
  [/PGlite is closed|^Aborted\(|RuntimeError: Aborted/i, "closed"],
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function classifyOne(e: Record<string, unknown>): UnavailableReason | null {
  const code = typeof e.code === "string" ? e.code : undefined;
  if (code) {
    const reason = PRISMA_CODES[code] ?? SQLSTATES[code] ?? ERRNO[code];
    if (reason) return reason;
    if (/^08[0-9A-Z]{3}$/.test(code)) return "unreachable";
  }
  const original = typeof e.originalCode === "string" ? e.originalCode : undefined;
  if (original) {
    const reason = SQLSTATES[original];
    if (reason) return reason;
    if (/^08[0-9A-Z]{3}$/.test(original)) return "unreachable";
  }
  if (typeof e.kind === "string" && ADAPTER_KINDS[e.kind]) return ADAPTER_KINDS[e.kind]!;
  if (e instanceof DatabaseUnavailableError) return e.reason;
  // A Prisma raw-query failure carries the SQLSTATE in its message ("Code: `25006`").
  const message = typeof e.message === "string" ? e.message : "";
  const raw = /Code: `([0-9A-Z]{5})`/.exec(message)?.[1];
  if (raw && SQLSTATES[raw]) return SQLSTATES[raw]!;
  for (const [pattern, reason] of MESSAGES) if (pattern.test(message)) return reason;
  return null;
}

/** Links of an error chain: the error, its causes, Prisma's driver-adapter error and its cause. */
function* chain(err: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 16) {
    const e = queue.shift();
    if (!isObject(e) || seen.has(e)) continue;
    seen.add(e);
    yield e;
    queue.push(e.cause);
    const meta = e.meta;
    if (isObject(meta)) queue.push(meta.driverAdapterError);
    if (Array.isArray(e.errors)) queue.push(...(e.errors as unknown[])); // AggregateError (both IPv4 and IPv6 refused)
    if (isObject(e.originalError)) queue.push(e.originalError); // GraphQLError around a resolver's error
  }
}

/** Why the database is unavailable according to `err`, or null when `err` is something else. */
export function unavailableReason(err: unknown): UnavailableReason | null {
  for (const link of chain(err)) {
    const reason = classifyOne(link);
    if (reason) return reason;
  }
  return null;
}

/** `err` as a DatabaseUnavailableError when it means the database is unavailable, else null. */
export function asDatabaseUnavailable(err: unknown): DatabaseUnavailableError | null {
  if (err instanceof DatabaseUnavailableError) return err;
  const reason = unavailableReason(err);
  return reason ? new DatabaseUnavailableError(reason, { cause: err }) : null;
}

export function isDatabaseUnavailable(err: unknown): boolean {
  return unavailableReason(err) !== null;
}

/** The Retry-After header of every 503 for an unavailable database. */
export function retryAfterHeaders(): Record<string, string> {
  return { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) };
}
