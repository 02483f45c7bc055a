// The audit log's one writer (docs/decisions.md, "Audit log"; docs/architecture.md, "Audit log").
// Every write verb takes an `actor` in its options (no default: a verb called without one does not
// compile) and, on the path where it changes something, calls recordAudit(tx, …) in the same
// transaction as the change, next to recordEvent. A rolled-back change (a refusal after a write, a
// dry run, an error) leaves no row; a committed one exactly its rows.
import { userInfo } from "node:os";
import type { Prisma } from "./generated/client";
import { timeOrderedId } from "./time-ordered-id";

type Tx = Prisma.TransactionClient;

export const AUDIT_ACTOR_TYPES = ["member", "api_key", "oauth_client", "system", "cli"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * Who makes a change, as the transport that received it knows them: built once per request from
 * its credential (lib/admin-api/audit-actor.ts, lib/mcp/audit-actor.ts, lib/account/forms.ts), by
 * a job (systemActor) or a command (cliActor), and passed to the verb.
 */
export interface AuditActor {
  type: AuditActorType;
  /** member: user id; api_key: key id; oauth_client: client_id; system, cli: null. */
  id: string | null;
  /** Readable: an email, a key's name, "<email> via <client_id>", a job's name, the OS user. */
  label: string;
  /** The credential used: the API key id, the OAuth grant id, the member's session id. */
  credentialId: string | null;
  requestId: string | null;
  /** The client's address by the TRUST_PROXY rule (lib/tenancy/request-context.ts, clientAddress). */
  ip: string | null;
}

/** A field's value before and after the change. */
export type AuditChange = { from: unknown; to: unknown };

export interface AuditEntry {
  schoolId: string;
  /** "<target>.<verb>": subscription.cancel, webhook_endpoint.rotate_secret, … */
  action: string;
  target: { type: string; id: string | null };
  /** What changed: field → { from, to } (changedFields), or facts of a creation. Never a secret. */
  summary?: Record<string, unknown>;
}

/** How long rows are kept: about 13 months, so a year-on-year question still has its answer. */
export const AUDIT_RETENTION_DAYS = 400;

// Any field whose name says it holds a secret is written as "[redacted]": the summary records that
// it changed, never its value (docs/security.md, "Audit log").
const SECRET_FIELD = /secret|password|hash|token|ciphertext|credential|private|^key$|apikey/i;
export const REDACTED = "[redacted]";

/** A summary value as stored: dates as ISO strings, decimals and bigints as strings, secrets redacted. */
function clean(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (depth > 4) return String(value);
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => clean(v, depth + 1));
  // Prisma's Decimal and anything else with its own string form.
  if (typeof value === "object" && value.constructor !== Object && typeof (value as { toString?: unknown }).toString === "function") return String(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_FIELD.test(k) ? REDACTED : clean(v, depth + 1);
  return out;
}

/** The summary as written: secrets redacted at every level, values in JSON form. */
export const auditSummary = (summary: Record<string, unknown> | undefined): Record<string, unknown> =>
  clean(summary ?? {}) as Record<string, unknown>;

const same = (a: unknown, b: unknown) => JSON.stringify(clean(a)) === JSON.stringify(clean(b));

/** The fields of `after` whose value differs from `before`, as { field: { from, to } }. */
export function changedFields<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): Record<string, AuditChange> {
  const out: Record<string, AuditChange> = {};
  for (const f of fields) if (!same(before[f], after[f])) out[f] = { from: before[f], to: after[f] };
  return out;
}

/** The rows of entries, as recordAudit's statement and the one-statement writers (auditInsert) take them. */
export function auditRows(actor: AuditActor, entries: AuditEntry[], now: Date) {
  return entries.map((e) => ({
    id: timeOrderedId(),
    schoolId: e.schoolId,
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label.slice(0, 300),
    credentialId: actor.credentialId,
    action: e.action,
    targetType: e.target.type,
    targetId: e.target.id,
    summary: auditSummary(e.summary),
    requestId: actor.requestId?.slice(0, 200) ?? null,
    ip: actor.ip?.slice(0, 64) ?? null,
    createdAt: now.toISOString(),
  }));
}

/**
 * The INSERT of the JSON array in parameter `rows` (auditRows), as a data-modifying CTE named
 * `name` for a statement's WITH list; `when`, a condition that must hold for anything to be written.
 */
export function auditInsert(params: { name: string; rows: string; when?: string }): string {
  const { name, rows, when } = params;
  return `${name} AS (
  INSERT INTO "AuditEvent" ("id", "schoolId", "actorType", "actorId", "actorLabel", "credentialId", "action",
                            "targetType", "targetId", "summary", "requestId", "ip", "createdAt")
  SELECT x."id", x."schoolId", x."actorType"::"AuditActorType", x."actorId", x."actorLabel", x."credentialId", x."action",
         x."targetType", x."targetId", x."summary", x."requestId", x."ip", x."createdAt"
    FROM jsonb_to_recordset(${rows}::jsonb) AS x("id" uuid, "schoolId" uuid, "actorType" text, "actorId" text, "actorLabel" text,
         "credentialId" text, "action" text, "targetType" text, "targetId" text, "summary" jsonb, "requestId" text, "ip" text,
         "createdAt" timestamptz)${when ? `
   WHERE ${when}` : ""}
  RETURNING 1
)`;
}

const RECORD_AUDIT_SQL = `WITH ${auditInsert({ name: "audit_rows", rows: "$1" })} SELECT 1`;

/** Writes audit rows inside the caller's transaction, in one statement whatever their number. */
export async function recordAudits(tx: Tx, options: { actor: AuditActor; entries: AuditEntry[]; now: Date }): Promise<void> {
  const { actor, entries, now } = options;
  if (!entries.length) return;
  await tx.$executeRawUnsafe(RECORD_AUDIT_SQL, JSON.stringify(auditRows(actor, entries, now)));
}

export const recordAudit = (tx: Tx, options: { actor: AuditActor; entry: AuditEntry; now: Date }) =>
  recordAudits(tx, { actor: options.actor, entries: [options.entry], now: options.now });

/** A signed-in member acting on their own behalf (the account pages, checkout), in this request. */
export const memberActor = (member: { userId: string; email: string; sessionId: string }, request: { requestId: string; ip: string | null }): AuditActor => ({
  type: "member",
  id: member.userId,
  label: member.email,
  credentialId: member.sessionId,
  ...request,
});

/** A scheduled job of the platform (renewals, the time rules): no person, no request. */
export const systemActor = (job: string): AuditActor => ({ type: "system", id: null, label: job, credentialId: null, requestId: null, ip: null });

/** A command run on the server (npm run school / apikey / oauth-client): the OS user who ran it. */
export function cliActor(command: string): AuditActor {
  let user: string | null = null;
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the command alone names the actor.
  }
  return { type: "cli", id: null, label: user ? `${command} (${user})` : command, credentialId: null, requestId: null, ip: null };
}

/**
 * Deletes rows older than the retention period, oldest first, at most `batch` per call (the cron and
 * the worker call it every run, so a backlog drains over a few runs without one long statement).
 * The only DELETE the append-only trigger admits: it sets schoolhouse.audit_purge for its own
 * transaction only (SET LOCAL).
 */
export async function purgeAuditEvents(db: { $transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> }, options: { now: Date; batch?: number }): Promise<number> {
  const cutoff = new Date(options.now.getTime() - AUDIT_RETENTION_DAYS * 86_400_000);
  const batch = options.batch ?? 5_000;
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SET LOCAL schoolhouse.audit_purge = 'on'`);
    return tx.$executeRaw`
      DELETE FROM "AuditEvent" WHERE "id" IN (
        SELECT "id" FROM "AuditEvent" WHERE "createdAt" < ${cutoff} ORDER BY "createdAt" LIMIT ${batch})`;
  });
}
