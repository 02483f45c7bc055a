import type { ReactNode } from "react";
import { StorefrontFrame } from "../../(storefront)/_components/frame";
import { renderSchool } from "./render";

// The cached rendering route of the storefront's HTML pages (lib/storefront/page-cache.ts): the
// proxy rewrites found pages here after the gate; Next renders each key once and serves it from
// its incremental cache after that. Reads nothing from the request: everything is in the key.
export default async function RenderedStorefrontLayout({ children, params }: { children: ReactNode; params: Promise<{ site: string }> }) {
  const { school } = await renderSchool((await params).site);
  return <StorefrontFrame school={school}>{children}</StorefrontFrame>;
}
