// Every HTTP endpoint of the service, declared once: its path (the app/ folder of its route.ts, with
// Next's [param] segments), each method's one handler, and the methods proxy.ts answers itself.
// Both ways in come from here: each app/**/route.ts is `export const { GET, … } = route("<path>")`,
// and proxy.ts calls answerInProxy(), which finds the same handler objects. So a path and method is
// answered by one function whichever way the request arrives (tests/unit/route-table.test.ts walks
// app/ and this table). Pages are not here: they are React components under app/ (see PAGES in
// docs/architecture.md). Handlers are imported on first use (lazy), so a route module loads only
// its own code. To add an endpoint: add its entry here, then its route.ts one-liner (the test names
// what is missing).
import { isValidSlug, type DocumentKind } from "@/lib/storefront/routes";
import { alsoInFront, lazy, lazyPlain, param, proxyPattern, skipsProxy, type Endpoint, type Handler, type Method, type ProxyPattern, type RouteContext } from "./endpoint";

/** A storefront markdown twin (lib/storefront/markdown-route.ts): GET/HEAD serve it, OPTIONS names them, the rest are a markdown 405. */
function markdownTwin(kind: DocumentKind) {
  const of = (method: "GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE") =>
    lazy(async () => (await import("@/lib/storefront/markdown-route")).markdownRoute(kind)[method]);
  const GET = of("GET");
  return {
    methods: { GET, HEAD: GET, OPTIONS: of("OPTIONS"), POST: of("POST"), PUT: of("PUT"), PATCH: of("PATCH"), DELETE: of("DELETE") },
    // Well-formed slugs only: a percent-encoded or malformed one goes to the route (400, decoded params).
    proxy: { methods: ["GET", "HEAD"], params: { slug: isValidSlug } },
  } satisfies Endpoint;
}

const oauthPreflight = lazy(async () => (await import("@/lib/oauth/http")).preflight);
const resourceMetadata = lazy(async () => (await import("@/lib/mcp/resource-metadata")).handleResourceMetadataRequest);
const discovery = lazyPlain(async () => (await import("@/lib/oauth/discovery")).handleDiscoveryRequest);
const mcp = lazy(async () => (await import("@/lib/mcp/handler")).handleMcpRequest);
const checkoutReview = {
  methods: { GET: lazy(async () => (await import("@/lib/billing/checkout-requests")).handleCheckoutReview) },
  // A percent-encoded or malformed slug goes on to the route, whose same handler answers its 404.
  proxy: { methods: ["GET"], params: { slug: isValidSlug } },
} satisfies Endpoint;

export const ROUTES = {
  // Storefront text documents (lib/storefront). GET/HEAD of the twins and llms files: in the proxy.
  "/api/md/home": markdownTwin("home"),
  "/api/md/faq": markdownTwin("faq"),
  "/api/md/courses": markdownTwin("course_index"),
  "/api/md/courses/[slug]": markdownTwin("course"),
  "/api/md/posts/[slug]": markdownTwin("post"),
  "/api/md/events/[slug]": markdownTwin("event"),
  "/api/md/digital-downloads/[slug]": markdownTwin("digital_download"),
  "/api/md/plans/[slug]": markdownTwin("plan"),
  "/api/md/categories/[slug]": markdownTwin("category"),
  "/api/md/lecturers": markdownTwin("lecturer_index"),
  "/api/md/lecturers/[slug]": markdownTwin("lecturer"),
  // /api/md itself and every path under it no twin matches: a markdown 404, whatever the method.
  "/api/md/[[...path]]": (() => {
    const of = (method: Method) => lazy(async () => (await import("@/lib/storefront/markdown-route")).unknownMarkdownPath()[method]);
    const GET = of("GET");
    return { methods: { GET, HEAD: GET, OPTIONS: GET, POST: GET, PUT: GET, PATCH: GET, DELETE: GET } } satisfies Endpoint;
  })(),
  "/llms.txt": (() => {
    const GET = lazy(async () => (await import("@/lib/storefront/llms-routes")).serveLlmsTxt);
    return { methods: { GET, HEAD: GET }, proxy: { methods: ["GET", "HEAD"] } } satisfies Endpoint;
  })(),
  "/llms-full.txt": (() => {
    const GET = lazy(async () => (await import("@/lib/storefront/llms-routes")).serveLlmsFullTxt);
    return { methods: { GET, HEAD: GET }, proxy: { methods: ["GET", "HEAD"] } } satisfies Endpoint;
  })(),
  "/llms-full/[part]": (() => {
    const GET = lazy(async () => {
      const { serveLlmsFullPart } = await import("@/lib/storefront/llms-routes");
      return async (request, ctx) => serveLlmsFullPart(request, (await param(ctx, "part")) ?? "");
    });
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),
  "/openapi.json": (() => {
    const GET = lazy(async () => (await import("@/lib/storefront/text-routes")).serveOpenApi);
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),
  "/robots.txt": (() => {
    const GET = lazy(async () => (await import("@/lib/storefront/text-routes")).serveRobotsTxt);
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),
  "/sitemap.xml": (() => {
    const GET = lazy(async () => (await import("@/lib/storefront/text-routes")).serveSitemap);
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),
  "/media/[hash]/[name]": (() => {
    const GET = lazy(async () => (await import("@/lib/content/serve-image")).serveContentImage);
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),

  // Admin GraphQL API (lib/admin-api; the Vercel delivery hook: ./admin-graphql.ts). GET, POST and
  // OPTIONS in the proxy; HEAD is Next's GET at the route.
  "/admin/graphql": alsoInFront({
    methods: {
      GET: lazy(async () => (await import("./admin-graphql")).GET),
      POST: lazy(async () => (await import("./admin-graphql")).POST),
      OPTIONS: lazy(async () => (await import("./admin-graphql")).OPTIONS),
    },
    proxy: { methods: ["GET", "POST", "OPTIONS"] },
    front: ["POST"],
  }),
  "/admin/graphql/schema.graphql": (() => {
    const GET = lazy(async () => (await import("@/lib/admin-api/sdl")).serveAdminSdl);
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),
  "/admin/graphql/assets/[file]": (() => {
    const GET = lazy(async () => {
      const { playgroundAssetResponse } = await import("@/lib/admin-api/playground");
      return async (request, ctx) => playgroundAssetResponse(request, (await param(ctx, "file")) ?? "");
    });
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),

  // MCP (lib/mcp, Streamable HTTP, stateless). POST in the proxy.
  "/mcp": alsoInFront({ methods: { POST: mcp, GET: mcp, DELETE: mcp, OPTIONS: mcp }, proxy: { methods: ["POST"] }, front: ["POST"] }),
  "/.well-known/mcp/server-card.json": (() => {
    const GET = lazy(async () => (await import("@/lib/mcp/server-card")).handleServerCardRequest);
    return { methods: { GET, OPTIONS: GET } } satisfies Endpoint;
  })(),
  // RFC 9728 metadata of /mcp: the path-suffixed form (what MCP clients ask first) and the root form.
  "/.well-known/oauth-protected-resource/mcp": { methods: { GET: resourceMetadata, OPTIONS: resourceMetadata } },
  "/.well-known/oauth-protected-resource": { methods: { GET: resourceMetadata, OPTIONS: resourceMetadata } },

  // OAuth 2.1 and OpenID Connect (lib/oauth, lib/oidc). CORS preflights: lib/oauth/http.ts.
  "/.well-known/oauth-authorization-server": { methods: { GET: discovery, OPTIONS: oauthPreflight } },
  "/.well-known/openid-configuration": { methods: { GET: discovery, OPTIONS: oauthPreflight } },
  "/oauth/authorize": {
    methods: {
      GET: lazy(async () => (await import("@/lib/oauth/authorize-endpoint")).handleAuthorizeGet),
      POST: lazy(async () => (await import("@/lib/oauth/authorize-endpoint")).handleAuthorizePost),
    },
  },
  "/oauth/docs": { methods: { GET: lazy(async () => (await import("@/lib/oauth/docs")).handleDocsRequest) } },
  // RP-Initiated Logout 1.0: GET (the usual redirect) and POST (form) are both allowed (§2).
  "/oauth/end-session": (() => {
    const handler = lazy(async () => (await import("@/lib/oidc/end-session-endpoint")).handleEndSessionRequest);
    return { methods: { GET: handler, POST: handler } } satisfies Endpoint;
  })(),
  // The JSON endpoints of the token side skip proxy.ts (`skipsProxy`: they need only the edge guard).
  // The hot ones are answered by the OAuth front under the production entry (`front`, server/front.mjs),
  // which calls their plain form (`lazyPlain`) with no Request or Response built.
  "/api/oauth/token": skipsProxy({ methods: { POST: lazyPlain(async () => (await import("@/lib/oauth/token-endpoint")).handleTokenRequest), OPTIONS: oauthPreflight }, front: ["POST"] }),
  "/api/oauth/revoke": skipsProxy({ methods: { POST: lazyPlain(async () => (await import("@/lib/oauth/revoke")).handleRevokeRequest), OPTIONS: oauthPreflight }, front: ["POST"] }),
  "/api/oauth/introspect": skipsProxy({ methods: { POST: lazyPlain(async () => (await import("@/lib/oauth/introspect")).handleIntrospectRequest), OPTIONS: oauthPreflight }, front: ["POST"] }),
  "/api/oauth/register": skipsProxy({ methods: { POST: lazyPlain(async () => (await import("@/lib/oauth/register")).handleRegisterRequest), OPTIONS: oauthPreflight } }),
  "/api/oauth/jwks": skipsProxy({ methods: { GET: lazyPlain(async () => (await import("@/lib/oidc/jwks-endpoint")).handleJwksRequest), OPTIONS: oauthPreflight } }),
  "/api/oauth/userinfo": (() => {
    const handler = lazyPlain(async () => (await import("@/lib/oauth/userinfo")).handleUserInfoRequest);
    return skipsProxy({ methods: { GET: handler, POST: handler, OPTIONS: oauthPreflight }, front: ["GET", "POST"] } satisfies Endpoint);
  })(),

  // Member sessions (lib/auth): Auth.js, and the set-password form's target.
  "/api/auth/[...auth]": (() => {
    const handler = lazy(async () => (await import("@/lib/auth/handler")).handleAuthRequest);
    return { methods: { GET: handler, POST: handler } } satisfies Endpoint;
  })(),
  "/api/account/set-password": { methods: { POST: lazy(async () => (await import("@/lib/auth/set-password-request")).handleSetPasswordPost) } },
  // The signed-in member's account forms (profile, password, memberships, apps, sessions).
  "/api/account/[action]": { methods: { POST: lazy(async () => (await import("@/lib/account/forms")).handleAccountPost) } },
  // A digital download's file, for the signed-in member with its access (lib/account/download-file.ts):
  // behind the account pages' gate in proxy.ts, and checked again here on every request.
  "/account/downloads/[id]": (() => {
    const GET = lazy(async () => {
      const { serveDownloadFile } = await import("@/lib/account/download-file");
      return async (request, ctx) => serveDownloadFile(request, (await param(ctx, "id")) ?? "");
    });
    return { methods: { GET, HEAD: GET } } satisfies Endpoint;
  })(),
  // Forgot password and email verification (lib/auth/account-forms.ts): no session needed.
  "/api/account/forgot-password": { methods: { POST: lazy(async () => (await import("@/lib/auth/account-forms")).handleForgotPasswordPost) } },
  "/api/account/verify-email": { methods: { POST: lazy(async () => (await import("@/lib/auth/account-forms")).handleVerifyEmailPost) } },

  // Checkout on the storefront (lib/billing/checkout-requests.ts) and the test provider's hosted page
  // (lib/billing/test-checkout-page.ts): docs/decisions.md, "Billing", "Checkout".
  // The review pages (well-formed slugs) and the start are answered in the proxy, which saves Next's
  // route-handler stage on the two hot requests of a purchase (docs/benchmarks.md, "Checkout").
  "/checkout/plans/[slug]": checkoutReview,
  "/checkout/courses/[slug]": checkoutReview,
  "/checkout/digital-downloads/[slug]": checkoutReview,
  "/api/checkout": { methods: { POST: lazy(async () => (await import("@/lib/billing/checkout-requests")).handleCheckoutStart) }, proxy: { methods: ["POST"] } },
  "/checkout/complete/[id]": { methods: { GET: lazy(async () => (await import("@/lib/billing/checkout-requests")).handleCheckoutReturn) } },
  "/checkout/test/[session]": { methods: { GET: lazy(async () => (await import("@/lib/billing/test-checkout-page")).handleTestCheckoutPage) } },
  "/api/checkout/test/[session]": { methods: { POST: lazy(async () => (await import("@/lib/billing/test-checkout-page")).handleTestCheckoutPay) } },
  // A school's Stripe events (lib/billing/stripe-webhook.ts): signed with its signing secret, re-read from Stripe.
  "/api/webhooks/stripe": { methods: { POST: lazy(async () => (await import("@/lib/billing/stripe-webhook")).handleStripeWebhook) } },

  // Operations: health (lib/health), cron jobs (lib/admin-api/cron.ts, CRON_SECRET), the benchmark.
  "/api/health": skipsProxy({ methods: { GET: lazy(async () => (await import("@/lib/health/health")).healthResponse) } }),
  "/api/health/ready": (() => {
    const GET = lazy(async () => (await import("@/lib/health/health")).readinessResponse);
    return skipsProxy({ methods: { GET, HEAD: GET } } satisfies Endpoint);
  })(),
  "/api/cron/subscriptions": { methods: { GET: lazy(async () => (await import("@/lib/admin-api/cron")).handleSubscriptionsCron) } },
  // Delivering takes network round trips; Vercel stops the function at maxDuration.
  "/api/cron/webhooks": { methods: { GET: lazy(async () => (await import("@/lib/admin-api/cron")).handleWebhooksCron) }, maxDuration: 60 },
  // The bench's bare baseline (docs/benchmarks.md): a fixed small body, touching nothing (no
  // database, no tenancy, no lazy import; the edge guard only, like every route that skips the
  // proxy); every hot path is reported as a ratio to it.
  "/api/bench/baseline": skipsProxy({ methods: { GET: baseline } }),
  // The same handler behind proxy.ts, as every storefront page, the markdown, the Admin API and MCP
  // are: the like-for-like reference of the targets of requests that meet the proxy (the bare route
  // above skips it; docs/benchmarks.md, "The proxied bare route").
  "/api/bench/baseline-proxied": { methods: { GET: baseline } },
  // The bench's floors (bench/floors.ts): 404 unless BENCH_FLOOR_ROUTES=1.
  "/api/bench/floor-read": skipsProxy({ methods: { GET: lazy(async () => (await import("@/bench/floors")).floorReadResponse) } }),
  "/api/bench/floor-write": skipsProxy({ methods: { POST: lazy(async () => (await import("@/bench/floors")).floorWriteResponse) } }),
} as const satisfies Record<string, Endpoint>;

export type RoutePath = keyof typeof ROUTES;

/** The handlers an app/**\/route.ts exports: `export const { GET, HEAD } = route("/llms.txt");`. */
export function route<P extends RoutePath>(path: P): (typeof ROUTES)[P]["methods"] {
  return ROUTES[path].methods;
}

function baseline(): Response {
  return new Response("ok\n", { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

// The proxy's side: the (path, method) pairs the table marks `proxy`, matched on the raw pathname.
type ProxyEntry = { path: RoutePath; pattern: ProxyPattern; methods: ReadonlyMap<string, Handler> };
const PROXY_ENTRIES: ProxyEntry[] = (Object.entries(ROUTES) as [RoutePath, Endpoint][]).flatMap(([path, endpoint]) => {
  if (!endpoint.proxy) return [];
  const methods = new Map(endpoint.proxy.methods.map((m) => [m as string, endpoint.methods[m]!]));
  return [{ path, pattern: proxyPattern(path, endpoint), methods }];
});
const PROXY_FIXED = new Map(PROXY_ENTRIES.filter((e) => e.pattern.kind === "fixed").map((e) => [e.path as string, e]));
const PROXY_SEGMENTS = PROXY_ENTRIES.filter((e) => e.pattern.kind === "segment");
const NO_PARAMS: RouteContext = { params: Promise.resolve({}) };

/** The table entry and context proxy.ts answers a request with, or null to let it go on to Next's routes. */
export function proxyMatch(method: string, pathname: string): { path: RoutePath; handler: Handler; ctx: RouteContext } | null {
  const fixed = PROXY_FIXED.get(pathname);
  if (fixed) {
    const handler = fixed.methods.get(method);
    return handler ? { path: fixed.path, handler, ctx: NO_PARAMS } : null;
  }
  for (const entry of PROXY_SEGMENTS) {
    const p = entry.pattern as Extract<ProxyPattern, { kind: "segment" }>;
    if (pathname.length <= p.prefix.length || !pathname.startsWith(p.prefix)) continue;
    const raw = pathname.slice(p.prefix.length);
    if (raw.includes("/") || !p.accepts(raw)) continue;
    const handler = entry.methods.get(method);
    return handler ? { path: entry.path, handler, ctx: { params: Promise.resolve({ [p.name]: raw }) } } : null;
  }
  return null;
}

/** proxy.ts's dispatch: the response of the table's handler when the proxy answers this request itself, else null. */
export function answerInProxy(request: Request, method: string, pathname: string): Response | Promise<Response> | null {
  const match = proxyMatch(method, pathname);
  return match ? match.handler(request, match.ctx) : null;
}
