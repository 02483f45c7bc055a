import { headers } from "next/headers";
import type { ReactNode } from "react";
import { authSecret } from "@/lib/auth/auth-secret";
import { csrfTokenFromCookies } from "@/lib/auth/csrf";
import { getMemberSession } from "@/lib/auth/session";
import { StorefrontFrame } from "./_components/frame";
import { MemberMenu, SignInLink } from "./_components/header-account";
import { currentSchool } from "./_components/load";

// Pages rendered per request: the storefront's pages for a signed-in member (proxy.ts sends them
// here, never to the shared page cache, so their menu names them), the account pages, the 404s of
// the storefront's paths and pages the proxy could not send to the cached rendering route.
export const dynamic = "force-dynamic";

export default async function StorefrontLayout({ children }: { children: ReactNode }) {
  const { school } = await currentSchool();
  const h = await headers();
  // An unreadable session (database away) shows the Sign in link: the page itself still renders.
  const member = await getMemberSession({ headers: h }).catch(() => null);
  const account = member ? <MemberMenu name={member.name} csrfToken={csrfTokenFromCookies(h.get("cookie"), authSecret())} /> : <SignInLink returnTo="/" />;
  return (
    <StorefrontFrame school={school} account={account}>
      {children}
    </StorefrontFrame>
  );
}
