import { db } from "../db/client";
import { cachedContent } from "../db/content-cache";
import type { Course, Prisma } from "../db/generated/client";
import { isUuid } from "../core/ids";
import { QueryInputError, pageSize } from "../core/page";

/** Where a page of courses ends: the catalog order's key (position, id) of its last course. */
interface CourseCursor {
  p: number;
  i: string;
}

const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;

export const encodeCourseCursor = (c: { position: number; id: string }): string =>
  Buffer.from(JSON.stringify({ p: c.position, i: c.id } satisfies CourseCursor)).toString("base64url");

function decodeCourseCursor(raw: string): CourseCursor {
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<CourseCursor> | null;
    // position is an int4 column: anything else is not a cursor of ours and must not reach the database.
    if (v && Number.isInteger(v.p) && v.p! >= INT4_MIN && v.p! <= INT4_MAX && typeof v.i === "string" && isUuid(v.i)) {
      return { p: v.p!, i: v.i.toLowerCase() };
    }
  } catch {
    // fall through
  }
  throw new QueryInputError("after is not a valid cursor");
}

export interface CoursePage {
  /** The same array for every request of one content version and page (see the Admin API's presenter memo). */
  nodes: readonly Course[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * A page of the school's courses in catalog order (position, then id), from the content cache: a
 * course write shows within STOREFRONT_REVALIDATE_MS. The cache key holds the decoded cursor, so
 * spellings of one cursor share an entry.
 */
export function listCourses(options: { schoolId: string; first?: number | null; after?: string | null }): Promise<CoursePage> {
  const take = pageSize(options.first);
  const after = options.after ? decodeCourseCursor(options.after) : null;
  const key = `admin-courses\u0000${options.schoolId}\u0000${take}\u0000${after ? `${after.p}\u0000${after.i}` : ""}`;
  return cachedContent(key, async () => {
    const where: Prisma.CourseWhereInput = { schoolId: options.schoolId };
    if (after) where.OR = [{ position: { gt: after.p } }, { position: after.p, id: { gt: after.i } }];
    const rows = await db().course.findMany({ where, orderBy: [{ position: "asc" }, { id: "asc" }], take: take + 1 });
    const nodes = rows.slice(0, take);
    const last = nodes[nodes.length - 1];
    const page: CoursePage = { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: last ? encodeCourseCursor(last) : null } };
    return { value: page, bytes: nodes.reduce((n, r) => n + 512 + r.body.length + r.summary.length, 0) };
  });
}
