import type { ReactNode } from "react";

// Login, school picker and consent: a plain frame of their own, independent of the storefront's chrome.
export default function AuthLayout({ children }: { children: ReactNode }) {
  return <main className="wrap auth-frame">{children}</main>;
}
