// The console's audit log (/manage/audit): its search parameters as typed in the address bar, read
// into the filters listAuditEvents takes (the Admin API's auditEvents and MCP's list_audit_events).
// Dates are days (YYYY-MM-DD, UTC): "from" includes its day, "to" includes its day too. A filter the
// log refuses is a message on the page with the unfiltered log, never an error page.
import { AUDIT_ACTOR_TYPES } from "../db/audit";
import { QueryInputError } from "../core/page";
import { listAuditEvents, type AuditEventPage } from "../audit/list-audit-events";
import { INVALID_PAGE_LINK, one, pageAtCursor, type PageQuery } from "./paging";

export const AUDIT_PAGE_SIZE = 50;
const MAX_TEXT = 200;
const MAX_CURSOR = 2048;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD day as Unix seconds at its UTC midnight, or null when it names no real day. */
export function daySeconds(value: string): number | null {
  const m = DAY.exec(value);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2026-02-31 over into March: a day that does not exist is refused, not moved.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null;
  return ms / 1000;
}

export interface ConsoleAuditFilters {
  actor: string;
  action: string;
  target: string;
  from: string;
  to: string;
}

export interface ConsoleAuditList {
  filters: ConsoleAuditFilters;
  page: AuditEventPage;
  refused: string | null;
}

export async function consoleAuditList(o: { schoolId: string; query: PageQuery }): Promise<ConsoleAuditList> {
  const text = (name: string) => (one(o.query[name]) ?? "").replace(/\0/g, "").trim().slice(0, MAX_TEXT);
  const actorParam = text("actor");
  const filters: ConsoleAuditFilters = {
    actor: (AUDIT_ACTOR_TYPES as readonly string[]).includes(actorParam) ? actorParam : "",
    action: text("action"),
    target: text("target"),
    from: text("from"),
    to: text("to"),
  };
  const refusals: string[] = [];
  const day = (name: "from" | "to") => {
    if (!filters[name]) return null;
    const seconds = daySeconds(filters[name]);
    if (seconds === null) {
      refusals.push(`"${name === "from" ? "From" : "To"}" must be a day as YYYY-MM-DD.`);
      filters[name] = "";
    }
    return seconds;
  };
  const since = day("from");
  const to = day("to");
  const until = to === null ? null : to + 86_400;
  const after = one(o.query.after)?.slice(0, MAX_CURSOR) || null;
  const read = (a: string | null, withRange = true) =>
    listAuditEvents({
      schoolId: o.schoolId,
      filter: {
        first: AUDIT_PAGE_SIZE,
        after: a,
        actorType: filters.actor || null,
        action: filters.action || null,
        targetId: filters.target || null,
        since: withRange ? since : null,
        until: withRange ? until : null,
      },
    });
  try {
    const { result, badCursor } = await pageAtCursor(after, (a) => read(a));
    if (badCursor) refusals.push(INVALID_PAGE_LINK);
    return { filters, page: result, refused: refusals.join(" ") || null };
  } catch (err) {
    if (!(err instanceof QueryInputError)) throw err;
    // A range the log refuses (from after to): its message, and the log without the range.
    filters.from = "";
    filters.to = "";
    return { filters, page: await read(null, false), refused: [...refusals, err.message].join(" ") };
  }
}
