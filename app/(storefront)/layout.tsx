import type { ReactNode } from "react";
import { StorefrontFrame } from "./_components/frame";
import { currentSchool } from "./_components/load";

// Pages rendered per request: the 404s of the storefront's paths and pages the proxy could not
// send to the cached rendering route (app/%5Fsite). Found pages are served from there.
export const dynamic = "force-dynamic";

export default async function StorefrontLayout({ children }: { children: ReactNode }) {
  const { school } = await currentSchool();
  return <StorefrontFrame school={school}>{children}</StorefrontFrame>;
}
