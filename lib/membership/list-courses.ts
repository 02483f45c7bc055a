import { db } from "../db/client";
import { cachedContent } from "../db/content-cache";
import { pageSize } from "../core/page";

/** The school's courses, from the content cache: a course write shows within STOREFRONT_REVALIDATE_MS. */
export function listCourses(options: { schoolId: string; first?: number | null }) {
  const take = pageSize(options.first);
  return cachedContent(`admin-courses\u0000${options.schoolId}\u0000${take}`, async () => {
    const rows = await db().course.findMany({ where: { schoolId: options.schoolId }, orderBy: [{ position: "asc" }, { id: "asc" }], take });
    return { value: rows, bytes: rows.reduce((n, r) => n + 512 + r.body.length + r.summary.length, 0) };
  });
}
