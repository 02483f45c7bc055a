import { recordAudit, type AuditActor } from "../db/audit";
import type { Db } from "../db/client";
import { findSchoolByRef } from "../schools/find-school";
import { KIND_DIRS, readContentFolder } from "./read-folder";
import { syncContent, type ContentChange } from "./sync-content";

/**
 * `school import`: reads and validates the folder, then syncs it into the school in one
 * transaction, so a bad folder (or a failure half-way) changes nothing. `dryRun` reports the
 * changes without writing. An import that changed something writes one `content.import` row in
 * that transaction: how many items it created, updated and unpublished, and which (the first 50);
 * a dry run or an import that found nothing to change writes none.
 */
export async function importContent(options: { db: Db; school: string; dir: string; dryRun?: boolean; now: Date; actor: AuditActor }) {
  const school = await findSchoolByRef({ db: options.db, ref: options.school });
  const folder = await readContentFolder(options.dir);
  const changes: ContentChange[] = await options.db.$transaction(
    async (tx) => {
      const changes = await syncContent({ tx, schoolId: school.id, folder, dryRun: options.dryRun });
      if (!options.dryRun && changes.length) {
        const count = (action: ContentChange["action"]) => changes.filter((c) => c.action === action).length;
        const summary = { created: count("create"), updated: count("update"), unpublished: count("unpublish"), changes: changes.map(describeChange) };
        await recordAudit(tx, { actor: options.actor, now: options.now, entry: { schoolId: school.id, action: "content.import", target: { type: "school", id: school.id }, summary } });
      }
      return changes;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  return { school, changes };
}

export function describeChange(c: ContentChange): string {
  const what =
    c.kind === "faq" ? `faq "${c.key}"` : c.kind === "school" || c.kind === "home" ? c.kind : c.kind === "image" ? `images/${c.key}` : c.kind === "file" ? `files/${c.key}` : `${KIND_DIRS[c.kind].dir}/${c.key}`;
  return `${c.action} ${what}${c.action === "update" ? ` (${c.fields.join(", ")})` : ""}`;
}
