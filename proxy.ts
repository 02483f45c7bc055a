import { NextResponse, type NextRequest } from "next/server";
import { answerInProxy } from "@/app/_routes/table";
import { getMemberSession, hasSessionCookie } from "@/lib/auth/session";
import { accountPageGate, isAccountPagePath } from "@/lib/account/access";
import { consolePageGate, consolePassedHeaders } from "@/lib/console/access";
import { isConsolePath } from "@/lib/console/nav";
import { LOGIN_PATH } from "@/lib/auth/config";
import { PASSWORD_SETUP_PATH } from "@/lib/auth/password-setup";
import { FORGOT_PASSWORD_PATH } from "@/lib/auth/password-reset";
import { VERIFY_EMAIL_PATH } from "@/lib/auth/email-verification";
import { probeDatabase } from "@/lib/db/probe";
import { asDatabaseUnavailable } from "@/lib/db/unavailable";
import { guardEdge } from "@/lib/edge/guard";
import { env } from "@/lib/env";
import { CONSENT_PATH, SELECT_SCHOOL_PATH } from "@/lib/oauth/authorize";
import { unavailablePage } from "@/lib/core/html-page";
import { forbiddenHtml, forbiddenMarkdown, loginPath, storefrontAccess } from "@/lib/storefront/gate";
import { htmlUnavailable, markdownUnavailable, STALE_HEADERS } from "@/lib/storefront/http";
import { preferredRepresentation } from "@/lib/storefront/negotiate";
import { pageDocument } from "@/lib/storefront/page-check";
import { isRenderPath, rememberSchool, renderPath } from "@/lib/storefront/page-cache";
import { contentSignal, markdownAlternateLink } from "@/lib/storefront/discovery";
import { htmlPathOf, matchMarkdownUrl, matchPage, type PageMatch } from "@/lib/storefront/routes";
import { authSecret } from "@/lib/auth/auth-secret";
import { requestContext } from "@/lib/tenancy/request-context";

// What this proxy does, in order, for every request its `config.matcher` lets in:
// 1. The edge guard (lib/edge/guard.ts): malformed percent-encoding and invalid Host are answered
//    400 here, before Next's route matcher or any `new URL` sees them.
// 2. Outside requests for the internal page route (/_site/…) are refused (404): only this proxy's
//    rewrites, made after the gate, reach it.
// 3. The endpoints the route table (app/_routes/table.ts) marks `proxy` are answered here by their
//    table handler, the very function their app/**/route.ts exports, which saves Next's
//    route-handler stage for them (docs/benchmarks.md): GET/HEAD of the markdown twins (well-formed
//    slugs) and the llms files, GET/POST/OPTIONS of /admin/graphql, POST /mcp. Every other
//    endpoint, and these paths with another method or a slug the table's check refuses, go on to
//    Next's routes, which the same table answers (docs/architecture.md, "Route table").
// 4. Storefront pages (the paths of lib/storefront/routes.ts): the enterprise-training gate, then
//    Accept negotiation or a `<page>.md` URL (a rewrite to the /api/md twin), else a rewrite to the
//    cached page route (/_site/<render key>/…, lib/storefront/page-cache.ts). Order matters: the gate
//    runs before the markdown rewrite, so negotiation cannot be used to read a gated page. While the
//    database is unavailable, pages built before are served stale (marked with Warning) and others
//    answer 503 (lib/db/unavailable.ts); member pages answer 503.
// Login, OAuth, the rest of the API and assets pass straight through.
const MEMBER_PAGES = new Set([LOGIN_PATH, `${LOGIN_PATH}/signout`, FORGOT_PASSWORD_PATH, PASSWORD_SETUP_PATH, VERIFY_EMAIL_PATH, CONSENT_PATH, SELECT_SCHOOL_PATH]);

export async function proxy(request: NextRequest) {
  const refused = guardEdge({ url: request.url, headers: request.headers, trustProxy: env().TRUST_PROXY });
  if (refused) return refused;
  if (isRenderPath(request.nextUrl.pathname)) return NextResponse.rewrite(internalUrl(request, NOT_FOUND_PATH));
  // The endpoints the route table answers in the proxy (step 3 above); handlers load on first use,
  // so a server that never serves the Admin API or MCP never loads yoga or the SDK.
  const answered = answerInProxy(request, request.method, request.nextUrl.pathname);
  if (answered) return answered;
  // `<page>.md` is the page's markdown twin at its own address, whatever the Accept header.
  const mdUrl = matchMarkdownUrl(request.nextUrl.pathname);
  const page = mdUrl ?? matchPage(request.nextUrl.pathname);
  if (!page && isAccountPagePath(request.nextUrl.pathname)) {
    // The account pages: the login page for a visitor, 403 for an account of another school.
    try {
      return (await accountPageGate(request, request.nextUrl.pathname + request.nextUrl.search)) ?? NextResponse.next();
    } catch (err) {
      if (!asDatabaseUnavailable(err)) throw err;
      return unavailablePage();
    }
  }
  if (!page && isConsolePath(request.nextUrl.pathname)) {
    // The staff console's pages and their server actions: 403 for a post from another site, the
    // login page for a visitor, 403 for a role the permission matrix does not allow there
    // (lib/console/permissions.ts).
    try {
      const refused = await consolePageGate(request, request.nextUrl.pathname, request.nextUrl.pathname + request.nextUrl.search);
      if (refused) return refused;
      // A form post made without JavaScript under a no-referrer policy says `Origin: null`.
      const passed = consolePassedHeaders(request);
      return passed ? NextResponse.next({ request: { headers: passed } }) : NextResponse.next();
    } catch (err) {
      if (!asDatabaseUnavailable(err)) throw err;
      return unavailablePage();
    }
  }
  if (!page) {
    // A server component cannot answer 503: check the database before the member pages that need
    // it (session rows, tokens, clients). They are visited rarely, so a query each is cheap.
    if (MEMBER_PAGES.has(request.nextUrl.pathname) && (await probeDatabase(2_000))) return unavailablePage();
    return NextResponse.next();
  }

  const wantsMarkdown =
    mdUrl !== null ||
    ((request.method === "GET" || request.method === "HEAD") && preferredRepresentation(request.headers.get("accept")) === "markdown");
  try {
    return await storefrontPage(request, page, wantsMarkdown);
  } catch (err) {
    if (!asDatabaseUnavailable(err)) throw err;
    return wantsMarkdown ? markdownUnavailable(request) : htmlUnavailable();
  }
}

async function storefrontPage(request: NextRequest, page: PageMatch, wantsMarkdown: boolean): Promise<NextResponse | Response> {
  const context = requestContext(request);
  const { origin } = context;
  const { school, stale: staleSchool } = await context.schoolState();
  // Read at most once: the gate and the page cache both ask.
  let session: ReturnType<typeof getMemberSession> | undefined;
  const memberSession = () => (session ??= getMemberSession(request));
  if (school) {
    const access = await storefrontAccess({ school, session: memberSession });
    const gatedHeaders = { "cache-control": "private, no-store", vary: "Accept, Cookie" };
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
    const res = NextResponse.rewrite(internalUrl(request, page.markdownPath));
    res.headers.set("vary", "Accept");
    return res;
  }
  if (!school) return NextResponse.next();
  const found = await pageDocument({ origin, school, page });
  const stale = (found?.stale ?? false) || staleSchool;
  // The warning, the school's Content-Signal and the Link to the markdown twin (agents follow it).
  const headers: Record<string, string> = { link: markdownAlternateLink(origin + page.markdownPath), "content-signal": contentSignal(school) };
  if (stale) headers.warning = STALE_HEADERS.warning!;
  // Malformed or unknown slugs: the dynamic page renders the 404 (nothing worth caching).
  if (!found?.doc || (request.method !== "GET" && request.method !== "HEAD")) return NextResponse.next({ headers });
  // A signed-in member's page names them in its header: rendered per request, never into the
  // shared page cache (docs/decisions.md, "Who is signed in, on cached pages"). Without a session
  // cookie nothing is looked up; a session that cannot be read (database away) counts as none.
  if (hasSessionCookie(request.headers) && (await memberSession().catch(() => null))) {
    return NextResponse.next({ headers: { ...headers, "cache-control": PAGE_CACHE_CONTROL } });
  }
  rememberSchool(school);
  const target = internalUrl(request, renderPath({ school, origin, doc: found.doc, htmlPath: htmlPathOf(page.route.kind, page.slug), secret: authSecret() }));
  // Next would mark a cached page storable by shared caches for a year; a storefront page stays
  // out of every cache as before (a gated school's page must never reach a shared one).
  return NextResponse.rewrite(target, { headers: { ...headers, "cache-control": PAGE_CACHE_CONTROL } });
}

/**
 * A rewrite target on this server. Next resolves rewrites against the address it listens on; with
 * `next start -H <address>` other than localhost, Next 16 builds the proxy's request.url on
 * "localhost" anyway, sees a rewrite to another origin and proxies it over HTTP back into the
 * server (docs/benchmarks.md): start it without -H, or with -H localhost.
 */
function internalUrl(request: NextRequest, pathname: string) {
  const url = request.nextUrl.clone();
  url.pathname = pathname;
  return url;
}

/** What Next sends for a dynamically rendered page: no cache may keep it. */
const PAGE_CACHE_CONTROL = "private, no-cache, no-store, max-age=0, must-revalidate";
/** No route has this path: rewriting to it renders the app's 404 page. */
const NOT_FOUND_PATH = "/_not-a-page";

// Which requests meet the proxy. Next reads the whole request body of every request the proxy
// matched before it sends any answer, even one the proxy gave itself (next-server's runMiddleware
// awaits the body clone's end), so a client declaring 30 MB and sending 64 KB held the request open
// for as long as it liked, and a streamed body was read to its end before its 413 (issue 29, item
// 13). Requests to the endpoints that read bodies skip the proxy when their body is declared larger
// than the endpoint's limit or has no declared length (chunked): their route handlers then refuse
// it at once, or stop reading at the limit, with `Connection: close` (lib/http/body.ts). Pages and
// every other path always meet the proxy (the storefront gate lives here); a slow body to them is
// the front proxy's to bound (docs/deploy.md, client_max_body_size). Next needs literal values here:
// the patterns are "more than 1 MiB" (Admin API, MCP: ADMIN_MAX_BODY_BYTES, MAX_BODY_BYTES) and
// "more than 8 KiB" (OAuth, login, consent and set-password forms: 8 or 16 KiB), checked in
// tests/unit/proxy-matcher.test.ts.
//
// The route table's `skipsProxy` endpoints (fixed API paths: the token side of OAuth, health, the
// bench's baseline and floors) never meet the proxy: it has nothing for them but the edge guard,
// which their handlers run themselves (app/_routes/endpoint.ts), and Next's proxy stage (the
// request and body copies, the matcher, the adapter) was about half of what such a request cost
// (docs/benchmarks.md, "Per-request cost of the framework"). Exact paths only (`$`): anything
// longer, a trailing slash or an escape meets the proxy as before. The same unit test checks
// these literals against the table.
export const config = {
  matcher: [
    // Everything but Next's own build assets, the body-reading endpoints and the table's
    // skipsProxy paths: the edge guard covers every other route.
    "/((?!_next/static/|_next/image|admin/graphql|mcp|api/oauth/|api/auth/|oauth/authorize|api/account/|api/checkout|(?:api/bench/(?:baseline|floor-read|floor-write)|api/health(?:/ready)?)$).*)",
    {
      source: "/((?:admin/graphql|mcp).*)",
      missing: [
        { type: "header", key: "content-length", value: "0*(?:[1-9]\\d{7,}|[2-9]\\d{6}|1[1-9]\\d{5}|10[5-9]\\d{4}|1049\\d{3}|1048[6-9]\\d{2}|10485[89]\\d|104857[7-9])" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    {
      source: "/((?!api/oauth/(?:token|introspect|revoke|register|jwks|userinfo)$)(?:api/oauth/|api/auth/|oauth/authorize|api/account/|api/checkout).*)",
      missing: [
        { type: "header", key: "content-length", value: "0*(?:[1-9]\\d{4,}|9\\d{3}|8[2-9]\\d{2}|819[3-9])" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};
