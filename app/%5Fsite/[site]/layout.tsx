import type { ReactNode } from "react";

// The cached rendering route of the storefront's HTML pages (lib/storefront/page-cache.ts): the
// proxy rewrites found pages here after the gate; Next renders each key once and serves it from
// its incremental cache after that. Reads nothing from the request: everything is in the key. The
// frame is drawn by the page, which knows its path (the Sign in link comes back to it).
export default function RenderedStorefrontLayout({ children }: { children: ReactNode }) {
  return children;
}
