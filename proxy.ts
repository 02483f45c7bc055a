import { NextResponse, type NextRequest } from "next/server";
import { preferredRepresentation } from "@/lib/storefront/negotiate";
import { matchPage } from "@/lib/storefront/routes";

// Storefront pages: Accept negotiation rewrites an HTML page to its /api/md twin when the client
// prefers markdown. Everything else (API, OAuth, login, assets) passes straight through.
export async function proxy(request: NextRequest) {
  const page = matchPage(request.nextUrl.pathname);
  if (!page) return NextResponse.next();

  const negotiable = request.method === "GET" || request.method === "HEAD";
  const vary = "Accept";

  if (negotiable && preferredRepresentation(request.headers.get("accept")) === "markdown") {
    const res = NextResponse.rewrite(new URL(page.markdownPath, request.url));
    res.headers.set("vary", vary);
    return res;
  }
  const res = NextResponse.next();
  res.headers.set("vary", vary);
  return res;
}

export const config = {
  matcher: ["/((?!_next/|favicon.ico|api/|admin/graphql|llms.txt|llms-full.txt|openapi.json|.well-known/).*)"],
};
