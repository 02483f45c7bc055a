import Link from "next/link";
import type { ReactNode } from "react";
import type { School } from "@/lib/db/generated/client";
import { brandStyle, validBrandColor } from "@/lib/storefront/brand";
import { initialsOf } from "./initials";
import { Picture } from "./picture";

/** A favicon for a school without one: its initial on its colour, as an SVG data URL (no request). */
function initialIcon(school: Pick<School, "name" | "brandColor">): string {
  const letter = initialsOf(school.name).slice(0, 1).replace(/[<&>"']/g, "");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${validBrandColor(school.brandColor) ?? "#2f5bd3"}"/><text x="16" y="22" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="18" fill="#fff">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

type FrameSchool = Pick<School, "name" | "brandColor" | "contactEmail" | "logoUrl" | "faviconUrl">;

/**
 * Header and footer of every storefront page: the school's row, and `account`, the header's corner
 * about the visitor (components/header-account.tsx). The cached pages pass the Sign in link, which
 * names nobody; the pages rendered per request for a signed-in member pass their menu.
 * The agents' entry points (llms.txt, the OpenAPI document) are named in <head> (React hoists these
 * <link>s there), where agents look, not in the footer people read.
 */
export function StorefrontFrame({ school, account, children }: { school: FrameSchool; account: ReactNode; children: ReactNode }) {
  return (
    <div className="site" style={brandStyle(school.brandColor)}>
      <link rel="icon" href={school.faviconUrl ?? initialIcon(school)} />
      <link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt: this school for language models" />
      <link rel="service-desc" type="application/json" href="/openapi.json" title="OpenAPI description" />
      <header className="site-header">
        <div className="wrap">
          <Link className="brand" href="/">
            <Picture src={school.logoUrl} alt="" name={school.name} width={40} height={40} className="brand-logo" priority />
            <span>{school.name}</span>
          </Link>
          <nav className="main" aria-label="Main">
            <Link href="/courses">Courses</Link>
            <Link href="/lecturers">Lecturers</Link>
            <Link href="/faq">FAQ</Link>
          </nav>
          {account}
        </div>
      </header>
      <div className="site-body">{children}</div>
      <footer className="site-footer">
        <div className="wrap">
          {school.name}
          {school.contactEmail ? (
            <>
              {" · "}
              <a href={`mailto:${school.contactEmail}`}>{school.contactEmail}</a>
            </>
          ) : null}
        </div>
      </footer>
    </div>
  );
}
