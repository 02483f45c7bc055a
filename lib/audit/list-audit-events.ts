import { db } from "../db/client";
import { AUDIT_ACTOR_TYPES, type AuditActorType } from "../db/audit";
import type { AuditEvent, Prisma } from "../db/generated/client";
import { pageSize, QueryInputError } from "../core/page";
import { beforeTimeCursor, decodeTimeCursor, encodeTimeCursor } from "../core/time-cursor";
import { fromUnixSeconds, toUnixSeconds } from "../clock";

export interface AuditEventFilter {
  first?: number | null;
  after?: string | null;
  /** member, api_key, oauth_client, system or cli. */
  actorType?: string | null;
  /** One action, e.g. subscription.cancel. */
  action?: string | null;
  /** Only rows about this target (a subscription, payment, endpoint, key… id). */
  targetId?: string | null;
  /** Unix seconds: rows at or after this time. */
  since?: number | null;
  /** Unix seconds: rows before this time. */
  until?: number | null;
}

export interface AuditEventPage {
  nodes: AuditEvent[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const MAX_FILTER_LENGTH = 200;
// Unix seconds the database can compare (years 1970 to 9999).
const MAX_SECONDS = 253_402_300_799;

const isActorType = (v: string): v is AuditActorType => (AUDIT_ACTOR_TYPES as readonly string[]).includes(v);

/** A since/until argument as a time; QueryInputError for anything outside 1970–9999. */
export function timeBound(name: string, value: number | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0 || value > MAX_SECONDS) throw new QueryInputError(`${name} must be Unix seconds between 0 and ${MAX_SECONDS}`);
  return fromUnixSeconds(value);
}

/** The createdAt range of since/until, checked: since not after until. */
export function timeRange(filter: { since?: number | null; until?: number | null }): Prisma.DateTimeFilter | null {
  const since = timeBound("since", filter.since);
  const until = timeBound("until", filter.until);
  if (since && until && since > until) throw new QueryInputError("since must not be after until");
  if (!since && !until) return null;
  return { ...(since ? { gte: since } : {}), ...(until ? { lt: until } : {}) };
}

/**
 * The school's audit log, newest first, by (createdAt, id) cursor; filtered by actor type, action,
 * target and time. Each filter has its index (AuditEvent(schoolId, actorType|action|targetId,
 * createdAt, id)), so a page reads its rows and no more (tests/pg/hot-plans.test.ts).
 */
export async function listAuditEvents(options: { schoolId: string; filter: AuditEventFilter }): Promise<AuditEventPage> {
  const { schoolId, filter } = options;
  const take = pageSize(filter.first);
  const where: Prisma.AuditEventWhereInput = { schoolId };
  if (filter.actorType) {
    if (!isActorType(filter.actorType)) throw new QueryInputError(`actorType must be one of ${AUDIT_ACTOR_TYPES.join(", ")}`);
    where.actorType = filter.actorType;
  }
  for (const key of ["action", "targetId"] as const) {
    const value = filter[key];
    if (!value) continue;
    if (value.length > MAX_FILTER_LENGTH) throw new QueryInputError(`${key} must be at most ${MAX_FILTER_LENGTH} characters`);
    where[key] = value;
  }
  const range = timeRange(filter);
  const and: Prisma.AuditEventWhereInput[] = [];
  if (range) and.push({ createdAt: range });
  if (filter.after) and.push(beforeTimeCursor(decodeTimeCursor(filter.after)));
  if (and.length) where.AND = and;
  const rows = await db().auditEvent.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: take + 1 });
  const nodes = rows.slice(0, take);
  const last = nodes[nodes.length - 1];
  return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeTimeCursor(last) : null } };
}

/** An audit row in the Admin API's and MCP's wire shape (Unix seconds, the summary as JSON text). */
export function presentAuditEvent(e: AuditEvent) {
  return {
    id: e.id,
    actorType: e.actorType,
    actorId: e.actorId,
    actorLabel: e.actorLabel,
    credentialId: e.credentialId,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    summary: JSON.stringify(e.summary),
    requestId: e.requestId,
    ip: e.ip,
    createdAt: toUnixSeconds(e.createdAt)!,
  };
}
