// The checkout's items (plans, courses, digital downloads) kept in process with the content version
// they were read at, so the review page and the start of a checkout read no item row per request
// (docs/benchmarks.md, "Checkout"). An entry is used only while the content version the content
// cache trusts (lib/db/content-cache.ts: read at most every STOREFRONT_REVALIDATE_MS) still equals
// the one read before the row: the review page shows an item at most that old, as every storefront
// page does. Money never depends on it: startCheckout's statement writes only while the database's
// ContentVersion (bumped by triggers on every write to the three tables and to School) still equals
// the entry's, and otherwise reads the item again (start-checkout.ts). Items that do not exist are
// not kept: a stream of made-up slugs cannot fill the process.
import { db } from "../db/client";
import { readContentVersion, trustedContentVersion } from "../db/content-cache";
import type { Course, DigitalDownload, MembershipPlan } from "../db/generated/client";
import { courseItem, downloadItem, planItem, type CheckoutItem, type CheckoutItemKind } from "./checkout-rules";

type ItemRow = { kind: "plan"; row: MembershipPlan } | { kind: "course"; row: Course } | { kind: "download"; row: DigitalDownload };

interface Entry {
  row: ItemRow;
  /** ContentVersion read before the row: the row is at least as new as this version. */
  contentVersion: bigint | null;
}

/** An item and the content version it is valid at (null: the database has no ContentVersion row). */
export interface VersionedCheckoutItem {
  item: CheckoutItem;
  contentVersion: bigint | null;
}

/** Which item: by id (a form, an API call) or by storefront slug (a review page). */
export type ItemKey = { kind: CheckoutItemKind; id: string } | { kind: CheckoutItemKind; slug: string };

const MAX_ENTRIES = 1_000;

// On globalThis: Next bundles the proxy and the route handlers apart, and they share one cache.
const slot = globalThis as typeof globalThis & { __schoolhouseCheckoutItems?: Map<string, Entry> };
const entries = (slot.__schoolhouseCheckoutItems ??= new Map());

const keyOf = (schoolId: string, key: ItemKey) => ("id" in key ? `${schoolId}:${key.kind}:id:${key.id}` : `${schoolId}:${key.kind}:slug:${key.slug}`);

function itemOf(entry: ItemRow, now: Date): CheckoutItem {
  switch (entry.kind) {
    case "plan":
      return planItem(entry.row, now);
    case "course":
      return courseItem(entry.row);
    case "download":
      return downloadItem(entry.row);
  }
}

async function readRow(schoolId: string, key: ItemKey): Promise<ItemRow | null> {
  // By id, the same reads as findCheckoutItem (checkout-rules.ts), which completeCheckout makes in its transaction.
  const byId = "id" in key ? { id: key.id, schoolId } : null;
  const bySlug = "slug" in key ? { schoolId_slug: { schoolId, slug: key.slug } } : null;
  switch (key.kind) {
    case "plan": {
      const row = byId ? await db().membershipPlan.findFirst({ where: byId }) : await db().membershipPlan.findUnique({ where: bySlug! });
      return row ? { kind: "plan", row } : null;
    }
    case "course": {
      const row = byId ? await db().course.findFirst({ where: byId }) : await db().course.findUnique({ where: bySlug! });
      return row ? { kind: "course", row } : null;
    }
    case "download": {
      const row = byId ? await db().digitalDownload.findFirst({ where: byId }) : await db().digitalDownload.findUnique({ where: bySlug! });
      return row ? { kind: "download", row } : null;
    }
  }
}

/**
 * The school's item (in any status) and the content version it is valid at, or null when there is
 * no such item. From the process cache unless `fresh`; callers check the id or slug's form first.
 */
export async function versionedCheckoutItem(options: { schoolId: string; key: ItemKey; now: Date; fresh?: boolean }): Promise<VersionedCheckoutItem | null> {
  const { schoolId, key, now } = options;
  const k = keyOf(schoolId, key);
  if (!options.fresh) {
    const hit = entries.get(k);
    if (hit && hit.contentVersion !== null) {
      // An entry read after the version the content cache trusts is at least as new as it.
      const trusted = await trustedContentVersion();
      if (trusted !== null && hit.contentVersion >= trusted) return { item: itemOf(hit.row, now), contentVersion: hit.contentVersion };
    }
  }
  // The version first (a read that starts after this call): a change landing between the two reads
  // leaves the version older than the row, and the checkout's guarded statement then refuses to
  // write with it.
  const version = await readContentVersion();
  const row = await readRow(schoolId, key);
  if (!row) {
    entries.delete(k);
    return null;
  }
  const entry: Entry = { row, contentVersion: version };
  entries.delete(k);
  entries.set(k, entry);
  for (const oldest of entries.keys()) {
    if (entries.size <= MAX_ENTRIES) break;
    entries.delete(oldest);
  }
  return { item: itemOf(row, now), contentVersion: entry.contentVersion };
}
