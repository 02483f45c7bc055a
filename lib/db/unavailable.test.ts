import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { Prisma } from "./generated/client";
import { asDatabaseUnavailable, DatabaseUnavailableError, isDatabaseUnavailable, unavailableReason } from "./unavailable";

const known = (message: string, code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7", meta });
const adapter = (cause: Record<string, unknown>) => ({ driverAdapterError: { name: "DriverAdapterError", cause } });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" });

describe("unavailableReason: the shapes an outage arrives in", () => {
  it.each<[string, unknown, string]>([
    // Observed from Prisma 7 + @prisma/adapter-pg against a stopped server.
    ["Prisma raw query, server down", known("Raw query failed. Code: `N/A`. Message: `Can't reach database server at 127.0.0.1:5471`", "P2010", adapter({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5471 })), "unreachable"],
    ["Prisma transaction start, server down", known("Can't reach database server at 127.0.0.1:5471", "P1001"), "unreachable"],
    ["Prisma: server closed the connection", known("Server has closed the connection.", "P1017"), "unreachable"],
    ["adapter: connection closed", known("x", "P2010", adapter({ kind: "ConnectionClosed" })), "unreachable"],
    ["adapter: socket timeout", known("x", "P2010", adapter({ kind: "SocketTimeout" })), "timeout"],
    ["Prisma pool timeout", known("Timed out fetching a new connection from the connection pool.", "P2024"), "timeout"],
    ["Prisma transaction could not start in time", known("Transaction API error: Unable to start a transaction in the given time.", "P2028"), "timeout"],
    ["pg pool timeout (no code)", new Error("timeout exceeded when trying to connect"), "timeout"],
    ["pg client cut mid-transaction", new Error("Client has encountered a connection error and is not queryable"), "unreachable"],
    ["pg: connection terminated", new Error("Connection terminated unexpectedly"), "unreachable"],
    ["socket refused", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), "unreachable"],
    ["socket reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }), "unreachable"],
    ["both address families refused (AggregateError)", new AggregateError([Object.assign(new Error("x"), { code: "ECONNREFUSED" })], ""), "unreachable"],
    ["admin shutdown 57P01", pgError("57P01", "terminating connection due to administrator command"), "shutdown"],
    ["crash shutdown 57P02", pgError("57P02", "terminating connection because of crash of another server process"), "shutdown"],
    ["cannot connect now 57P03", pgError("57P03", "the database system is starting up"), "shutdown"],
    ["too many connections 53300", pgError("53300", "sorry, too many clients already"), "shutdown"],
    ["connection exception class 08", pgError("08006", "connection failure"), "unreachable"],
    ["admin shutdown through the adapter", known("x", "P2010", adapter({ kind: "postgres", code: "57P01", originalCode: "57P01" })), "shutdown"],
    ["read-only failover 25006 (raw)", known("Raw query failed. Code: `25006`. Message: `cannot execute INSERT in a read-only transaction`", "P2010", adapter({ originalCode: "25006", kind: "postgres", code: "25006" })), "read_only"],
    ["read-only in a model query's message only", new Error("Raw query failed. Code: `25006`. Message: `read-only`"), "read_only"],
    ["serialization failure (adapter)", known("x", "P2010", adapter({ originalCode: "40001", kind: "TransactionWriteConflict" })), "conflict"],
    ["write conflict or deadlock P2034", known("Transaction failed due to a write conflict or a deadlock.", "P2034"), "conflict"],
    ["deadlock 40P01", pgError("40P01", "deadlock detected"), "conflict"],
    ["PGlite closed", new Error("PGlite is closed"), "closed"],
    ["PGlite aborted", new Error("Aborted(). Build with -sASSERTIONS for more info."), "closed"],
    ["already classified", new DatabaseUnavailableError("read_only"), "read_only"],
    ["wrapped as a cause", new Error("resolver failed", { cause: pgError("57P01", "terminating") }), "shutdown"],
    ["a GraphQL error around it", Object.assign(new Error("Unexpected error."), { originalError: known("x", "P1001") }), "unreachable"],
  ])("%s → %s", (_, err, reason) => {
    expect(unavailableReason(err)).toBe(reason);
    expect(asDatabaseUnavailable(err)).toBeInstanceOf(DatabaseUnavailableError);
  });

  it.each<[string, unknown]>([
    ["unique violation", known("Unique constraint failed", "P2002", adapter({ kind: "UniqueConstraintViolation" }))],
    ["record not found", known("No record", "P2025")],
    ["foreign key", pgError("23503", "violates foreign key constraint")],
    ["syntax error (a bug)", known("Raw query failed. Code: `42601`. Message: `syntax error`", "P2010")],
    ["bad credentials (configuration, not an outage)", known("x", "P1000", adapter({ kind: "AuthenticationFailed" }))],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["not an error", "boom"],
    ["null", null],
  ])("%s is not an outage", (_, err) => {
    expect(unavailableReason(err)).toBeNull();
    expect(asDatabaseUnavailable(err)).toBeNull();
  });

  it("a self-referencing cause chain terminates", () => {
    const e = new Error("loop") as Error & { cause?: unknown };
    e.cause = e;
    expect(isDatabaseUnavailable(e)).toBe(false);
  });

  it("the error carries 503, the wire code and the cause", () => {
    const cause = known("x", "P1001");
    const e = asDatabaseUnavailable(cause)!;
    expect(e).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE", reason: "unreachable", retryAfterSeconds: 5 });
    expect(e.cause).toBe(cause);
  });
});

describe("unavailableReason: real drivers", () => {
  it("a closed PGlite", async () => {
    const db = new PGlite();
    await db.close();
    const err = await db.query("SELECT 1").catch((e: unknown) => e);
    expect(unavailableReason(err)).toBe("closed");
  }, 90_000);

  it("a refused pg connection", async () => {
    // Port 1 on loopback: nothing listens there.
    const pool = new pg.Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/x", connectionTimeoutMillis: 2000 });
    const err = await pool.query("SELECT 1").catch((e: unknown) => e);
    await pool.end();
    expect(unavailableReason(err)).toBe("unreachable");
  });
});
