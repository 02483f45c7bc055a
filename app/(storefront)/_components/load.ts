import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { Metadata } from "next";
import { cache } from "react";
import { now } from "@/lib/clock";
import { cachedDocument } from "@/lib/storefront/cached";
import type { StorefrontDocument } from "@/lib/storefront/document";
import { hasSlug, isValidSlug, routeOf, type DocumentKind } from "@/lib/storefront/routes";
import { requestContext, type School } from "@/lib/tenancy/request-context";

/** The school of this request, or the 404 page. Cached per request (layout and page both ask). */
export const currentSchool = cache(async () => {
  const context = requestContext({ headers: await headers() });
  const school = await context.school();
  if (!school) notFound();
  return { school, origin: context.origin };
});

/**
 * The document a page shows; unknown or malformed slugs render the 404 page. While the database is
 * unavailable, the last built copy (proxy.ts checked there is one and marked the response stale).
 */
export const loadDocument = cache(async (kind: DocumentKind, slug?: string): Promise<StorefrontDocument> => {
  if (hasSlug(routeOf(kind)) && (slug === undefined || !isValidSlug(slug))) notFound();
  const { school, origin } = await currentSchool();
  const { value: doc } = await cachedDocument({ school, origin, now: now() }, kind, slug);
  if (!doc) notFound();
  return doc;
});

export async function documentMetadata(kind: DocumentKind, slug?: string): Promise<Metadata> {
  const doc = await loadDocument(kind, slug);
  const { school } = await currentSchool();
  return metadataOf({ kind, doc, school });
}

/** A page's metadata: title, canonical and markdown alternate, link previews. */
export function metadataOf({ kind, doc, school }: { kind: DocumentKind; doc: StorefrontDocument; school: Pick<School, "name"> }): Metadata {
  return {
    title: { absolute: kind === "home" ? `${school.name}: ${doc.title}` : `${doc.title} · ${school.name}` },
    description: doc.description,
    alternates: { canonical: doc.url, types: { "text/markdown": doc.markdownUrl } },
    // Link previews (Open Graph, Twitter/X cards) with the item's picture when it has one.
    openGraph: {
      type: kind === "post" ? "article" : "website",
      title: doc.title,
      description: doc.description,
      url: doc.url,
      siteName: school.name,
      locale: "en",
      ...(doc.image ? { images: [{ url: doc.image, alt: doc.title }] } : {}),
    },
    twitter: {
      card: doc.image ? "summary_large_image" : "summary",
      title: doc.title,
      description: doc.description,
      ...(doc.image ? { images: [{ url: doc.image, alt: doc.title }] } : {}),
    },
  };
}
