"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * The 404's way on: the home page, except when the home page is this 404 (an address where no
 * school answers), where a link would lead back here (issue 29, item 9).
 */
export function HomeLink() {
  if (usePathname() === "/") {
    return (
      <>
        <p className="lead">No school is served at this address.</p>
        <p>Each school has its own address; check the link you followed, or ask the school for it.</p>
      </>
    );
  }
  return (
    <>
      <p className="lead">There is nothing at this address.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </>
  );
}
