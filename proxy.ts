import { NextResponse, type NextRequest } from "next/server";

// Request-level routing that must happen before pages render. Kept free of database access
// so it stays cheap on every request.
export function proxy(_request: NextRequest) {
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!_next/|favicon.ico|api/|admin/graphql).*)"],
};
