import { isUuid } from "./ids";
import { QueryInputError } from "./page";

// The opaque cursor of the pages ordered by (createdAt, id): subscriptions, members, enrollments.
// base64url of JSON { c: ISO time, i: UUID }.

interface Cursor {
  c: string;
  i: string;
}

export interface TimeCursor {
  createdAt: Date;
  id: string;
}

export const encodeTimeCursor = (row: TimeCursor) =>
  Buffer.from(JSON.stringify({ c: row.createdAt.toISOString(), i: row.id } satisfies Cursor)).toString("base64url");

// The form encodeTimeCursor writes (Date#toISOString) for years 0001 to 9999. Anything else is not a
// cursor of ours: JS dates reach ±275,760 years, beyond what the database can compare (a
// "+275760-09-13…" or "-000001-…" cursor used to be an INTERNAL_SERVER_ERROR).
const CURSOR_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The position a cursor names; QueryInputError "after is not a valid cursor" for anything we did not write. */
export function decodeTimeCursor(raw: string): TimeCursor {
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Cursor;
    const createdAt = typeof v.c === "string" && CURSOR_TIME.test(v.c) ? new Date(v.c) : null;
    // Round trip: "2026-02-31T…" parses (as March 3) but is not a time we wrote.
    if (typeof v.i === "string" && isUuid(v.i) && createdAt && !Number.isNaN(createdAt.getTime()) && createdAt.toISOString() === v.c) {
      return { createdAt, id: v.i };
    }
  } catch {
    // fall through
  }
  throw new QueryInputError("after is not a valid cursor");
}

/**
 * The rows after a cursor, as a Prisma `where` fragment for a (createdAt, id) order. The OR alone is
 * only a filter, so a deep page read and discarded every row before the cursor; the redundant lower
 * bound on createdAt makes it a range scan of the (…, createdAt, id) index (tests/pg/hot-plans.test.ts).
 */
export function afterTimeCursor(c: TimeCursor) {
  return {
    createdAt: { gte: c.createdAt },
    OR: [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }],
  };
}

/**
 * The rows after a cursor for a newest-first (createdAt DESC, id DESC) order (the audit log,
 * school-wide payments): afterTimeCursor's mirror, with the same redundant bound so the page is a
 * backward range scan of the (…, createdAt, id) index.
 */
export function beforeTimeCursor(c: TimeCursor) {
  return {
    createdAt: { lte: c.createdAt },
    OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }],
  };
}
