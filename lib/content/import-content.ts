import type { Db } from "../db/client";
import { findSchoolByRef } from "../schools/find-school";
import { KIND_DIRS, readContentFolder } from "./read-folder";
import { syncContent, type ContentChange } from "./sync-content";

/**
 * `school import`: reads and validates the folder, then syncs it into the school in one
 * transaction, so a bad folder (or a failure half-way) changes nothing. `dryRun` reports the
 * changes without writing.
 */
export async function importContent(options: { db: Db; school: string; dir: string; dryRun?: boolean }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const folder = await readContentFolder(options.dir);
  const changes: ContentChange[] = await options.db.$transaction(
    (tx) => syncContent({ tx, schoolId: school.id, folder, dryRun: options.dryRun }),
    { timeout: 120_000, maxWait: 30_000 },
  );
  return { school, changes };
}

export function describeChange(c: ContentChange): string {
  const what =
    c.kind === "faq" ? `faq "${c.key}"` : c.kind === "school" || c.kind === "home" ? c.kind : c.kind === "image" ? `images/${c.key}` : `${KIND_DIRS[c.kind].dir}/${c.key}`;
  return `${c.action} ${what}${c.action === "update" ? ` (${c.fields.join(", ")})` : ""}`;
}
