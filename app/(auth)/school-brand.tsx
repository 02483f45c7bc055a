import type { ReactNode } from "react";
import { brandStyle } from "@/lib/storefront/brand";

/** The auth card in the school's colours, headed by its name (brandColor is validated by brandStyle). */
export function SchoolBrand({ school, children }: { school: { name: string; brandColor: string | null } | null; children: ReactNode }) {
  if (!school) return <>{children}</>;
  return (
    <div style={brandStyle(school.brandColor)}>
      <p className="auth-school">{school.name}</p>
      {children}
    </div>
  );
}
