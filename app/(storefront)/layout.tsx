import Link from "next/link";
import type { ReactNode } from "react";
import { brandStyle } from "@/lib/storefront/brand";
import { currentSchool } from "./_components/load";

export const dynamic = "force-dynamic";

export default async function StorefrontLayout({ children }: { children: ReactNode }) {
  const { school } = await currentSchool();
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
