import { NextResponse, type NextRequest } from "next/server";
import { getMemberSession } from "@/lib/auth/session";
import { forbiddenHtml, forbiddenMarkdown, loginPath, storefrontAccess } from "@/lib/storefront/gate";
import { preferredRepresentation } from "@/lib/storefront/negotiate";
import { matchPage } from "@/lib/storefront/routes";
import { requestContext, requestSchool } from "@/lib/tenancy/request-context";

// Storefront pages only (the paths of lib/storefront/routes.ts); login, OAuth, API and assets pass
// straight through. Order matters: the enterprise-training gate runs before the markdown rewrite,
// so negotiation cannot be used to read a gated page.
export async function proxy(request: NextRequest) {
  const page = matchPage(request.nextUrl.pathname);
  if (!page) return NextResponse.next();

  const wantsMarkdown =
    (request.method === "GET" || request.method === "HEAD") && preferredRepresentation(request.headers.get("accept")) === "markdown";

  const school = await requestSchool(request);
  if (school) {
    const access = await storefrontAccess({ school, session: () => getMemberSession(request) });
    const gatedHeaders = { "cache-control": "private, no-store", vary: "Accept, Cookie" };
    const { origin } = requestContext(request);
    if (access.kind === "anonymous") {
      const target = new URL(loginPath(request.nextUrl.pathname + request.nextUrl.search), origin);
      return new NextResponse(null, { status: 307, headers: { location: target.toString(), ...gatedHeaders } });
    }
    if (access.kind === "not_member") {
      const o = { schoolName: school.name, email: access.session.email, loginPath: loginPath(request.nextUrl.pathname + request.nextUrl.search), origin };
      return wantsMarkdown
        ? new NextResponse(forbiddenMarkdown(o), { status: 403, headers: { "content-type": "text/markdown; charset=utf-8", ...gatedHeaders } })
        : new NextResponse(forbiddenHtml(o), { status: 403, headers: { "content-type": "text/html; charset=utf-8", ...gatedHeaders } });
    }
  }

  if (wantsMarkdown) {
    const res = NextResponse.rewrite(new URL(page.markdownPath, request.url));
    res.headers.set("vary", "Accept");
    return res;
  }
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!_next/|favicon.ico|api/|admin/graphql|llms.txt|llms-full.txt|openapi.json|.well-known/).*)"],
};
