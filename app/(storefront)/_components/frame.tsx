import Link from "next/link";
import type { ReactNode } from "react";
import type { School } from "@/lib/db/generated/client";
import { brandStyle } from "@/lib/storefront/brand";

/** Header and footer of every storefront page: the school's row only, nothing about the visitor. */
export function StorefrontFrame({ school, children }: { school: Pick<School, "name" | "brandColor" | "contactEmail">; children: ReactNode }) {
  return (
    <div style={brandStyle(school.brandColor)}>
      <header className="site-header">
        <div className="wrap">
          <Link className="brand" href="/">
            {school.name}
          </Link>
          <nav className="main" aria-label="Main">
            <Link href="/courses">Courses</Link>
            <Link href="/lecturers">Lecturers</Link>
            <Link href="/faq">FAQ</Link>
          </nav>
        </div>
      </header>
      {children}
      <footer className="site-footer">
        <div className="wrap">
          {school.name}
          {school.contactEmail ? (
            <>
              {" · "}
              <a href={`mailto:${school.contactEmail}`}>{school.contactEmail}</a>
            </>
          ) : null}{" "}
          · For agents: <a href="/llms.txt">llms.txt</a> · <a href="/openapi.json">OpenAPI</a>
        </div>
      </footer>
    </div>
  );
}
