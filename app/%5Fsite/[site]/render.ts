import { notFound } from "next/navigation";
import { cache } from "react";
import { authSecret } from "@/lib/auth/auth-secret";
import { now } from "@/lib/clock";
import { readContentVersion } from "@/lib/db/content-cache";
import { cachedDocument } from "@/lib/storefront/cached";
import type { StorefrontDocument } from "@/lib/storefront/document";
import { decodeRenderKey, documentHash, rememberedSchool, type RenderKey } from "@/lib/storefront/page-cache";
import { matchPage, type StorefrontRoute } from "@/lib/storefront/routes";
import { findSchoolById, type School } from "@/lib/tenancy/resolve-school";

/** The key's school: as the proxy resolved it, else from the database; a bad key is a 404. */
export const renderSchool = cache(async (segment: string): Promise<{ key: RenderKey; school: School }> => {
  const key = decodeRenderKey(decodeURIComponent(segment), authSecret());
  if (!key) notFound();
  const school = rememberedSchool(key.schoolId, key.schoolVersion) ?? (await findSchoolById(key.schoolId));
  if (!school) notFound();
  return { key, school };
});

/** The page's route and document. */
export const renderDocument = cache(async (segment: string, path: string[] | undefined): Promise<{ route: StorefrontRoute; doc: StorefrontDocument; school: School }> => {
  const { key, school } = await renderSchool(segment);
  const page = matchPage(`/${(path ?? []).join("/")}`);
  if (!page) notFound();
  const load = async () => (await cachedDocument({ school, origin: key.origin, now: now() }, page.route.kind, page.slug)).value;
  let doc = await load();
  // The proxy named the document it saw. Another instance may trust an older content version for
  // up to STOREFRONT_REVALIDATE_MS: read the version now so this rendering is never older than its key.
  if (doc && documentHash(doc) !== key.docHash) {
    await readContentVersion();
    doc = await load();
  }
  if (!doc) notFound();
  return { route: page.route, doc, school };
});
