import type { Metadata } from "next";
import { DocumentView } from "../../../(storefront)/_components/document-view";
import { StorefrontFrame } from "../../../(storefront)/_components/frame";
import { SignInLink } from "../../../(storefront)/_components/header-account";
import { metadataOf } from "../../../(storefront)/_components/load";
import { renderDocument } from "../render";

// Rendered on first request for each key, then served from Next's incremental cache: a key names
// one version of the page (lib/storefront/page-cache.ts), so it never needs revalidating. Only
// visitors without a member session are sent here (proxy.ts), so the header shows Sign in.
export const revalidate = false;
export const dynamicParams = true;
export function generateStaticParams(): { site: string; path?: string[] }[] {
  return [];
}

type Props = { params: Promise<{ site: string; path?: string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site, path } = await params;
  const { route, doc, school } = await renderDocument(site, path);
  return metadataOf({ kind: route.kind, doc, school });
}

export default async function RenderedStorefrontPage({ params }: Props) {
  const { site, path } = await params;
  const { doc, school } = await renderDocument(site, path);
  // The document's own path (the key's page): where Sign in comes back to.
  const returnTo = new URL(doc.url).pathname;
  return (
    <StorefrontFrame school={school} account={<SignInLink returnTo={returnTo} />}>
      <DocumentView doc={doc} />
    </StorefrontFrame>
  );
}
