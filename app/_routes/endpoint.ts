// The pieces the route table (./table.ts) is written with: what an endpoint is, lazy handlers, and
// the proxy's matcher over the table's paths. Kept apart from the table so the table reads as a list.
import { guardEdge } from "@/lib/edge/guard";
import { env } from "@/lib/env";
import { fromResponse, toResponse, type PlainHandler, type PlainRequest } from "@/lib/http/plain";

export const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type Method = (typeof METHODS)[number];

export type Params = Record<string, string | string[] | undefined>;
/** What Next passes a route handler as its second argument (nothing for routes without dynamic segments). */
export type RouteContext = { params: Promise<Params> | undefined } | undefined;
/** A route handler as Next calls it; proxy.ts calls the same function with the params it matched. */
export type Handler = (request: Request, ctx?: RouteContext) => Response | Promise<Response>;

export interface Endpoint {
  /** Every method the endpoint answers, each with its one handler: exactly what its route.ts exports. */
  methods: Partial<Record<Method, Handler>>;
  /**
   * The methods proxy.ts answers itself (a subset of `methods`), which saves Next's route-handler
   * stage for hot, cheap requests. `params` says, per dynamic segment, which raw (still
   * percent-encoded) values the proxy takes; any other value goes on to the route, which Next
   * gives the decoded value, and the same handler answers it.
   */
  proxy?: { methods: readonly Method[]; params?: Record<string, (raw: string) => boolean> };
  /**
   * Requests to this exact path skip proxy.ts altogether (its `config.matcher` lists the path; made
   * with `skipsProxy()`): the proxy has nothing for it but the edge guard, which its handlers run
   * themselves. Saves Next's whole proxy stage per request (docs/benchmarks.md, "Per-request cost").
   */
  skipsProxy?: true;
  /**
   * The methods the front answers (a subset of `methods`; set with `skipsProxy()` or, on an
   * endpoint the proxy answers, `alsoInFront()`, which make those handlers run the edge guard):
   * under the production entry (server/start.mjs) a request for this exact path and one of these
   * methods is served by a node:http handler in the same process, before Next's request pipeline,
   * with the handler of Next's own compiled route module for the path. Everywhere else (Vercel,
   * `next dev`) the proxy or the route file answers it with the same handler (docs/decisions.md,
   * "The OAuth front").
   */
  front?: readonly Method[];
  /** Route segment config `maxDuration` (seconds), repeated as a literal in the route file (Next reads it there). */
  maxDuration?: number;
}

/**
 * A handler whose module is imported on its first request: a route module (and proxy.ts) holds
 * only the table, so a server that never serves MCP never loads the MCP SDK, and one that never
 * serves the Admin API never loads yoga. After the first call it is one function call more.
 */
export function lazy(load: () => Promise<Handler>): Handler {
  let loaded: Handler | undefined;
  return (request, ctx) => (loaded ? loaded(request, ctx) : load().then((handler) => (loaded = handler)(request, ctx)));
}

/**
 * The property on a handler written on plain requests (`lazyPlain`) that holds that plain form, for
 * the front (server/front.mjs) to call without building a Request or reading a Response. A symbol
 * from the global registry, as FRONT_METHODS.
 */
export const FRONT_PLAIN: unique symbol = Symbol.for("schoolhouse.front-plain");

type PlainMarked = Handler & { [FRONT_PLAIN]?: PlainHandler };

/**
 * `lazy` for an endpoint written on plain requests (lib/http/plain.ts): Next's routes and the
 * proxy call it with their Request (a plain request as it is) and get its answer as a Response;
 * the front calls the plain function itself (`FRONT_PLAIN`). One function underneath either way.
 */
export function lazyPlain(load: () => Promise<PlainHandler>): Handler & { [FRONT_PLAIN]: PlainHandler } {
  let loaded: PlainHandler | undefined;
  const plain: PlainHandler = (request) => (loaded ? loaded(request) : load().then((handler) => (loaded = handler)(request)));
  return Object.assign(async (request: Request) => toResponse(await plain(request)), { [FRONT_PLAIN]: plain });
}

/** One dynamic segment of a route path: its value, decoded by Next (or matched raw by the proxy). */
export async function param(ctx: RouteContext, name: string): Promise<string | undefined> {
  const value = (await ctx?.params)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** A route path (`/api/md/courses/[slug]`) as the proxy matches it: fixed, or a prefix and one `[name]` segment. */
export type ProxyPattern = { kind: "fixed"; path: string } | { kind: "segment"; prefix: string; name: string; accepts: (raw: string) => boolean };

export function proxyPattern(path: string, endpoint: Endpoint): ProxyPattern {
  const m = /^(\/.*\/)\[(\w+)\]$/.exec(path);
  if (!m) {
    if (path.includes("[")) throw new Error(`route table: the proxy matches fixed paths and one last [segment] only: ${path}`);
    return { kind: "fixed", path };
  }
  const accepts = endpoint.proxy?.params?.[m[2]!];
  if (!accepts) throw new Error(`route table: ${path} is answered in the proxy without a check of its [${m[2]}] segment`);
  return { kind: "segment", prefix: m[1]!, name: m[2]!, accepts };
}

/**
 * The property the OAuth front reads on a route module's exported handler: the methods that
 * handler object answers in the front. A symbol from the global registry, so server/front.mjs
 * (plain JavaScript, outside Next's bundles) and the bundled table name the same key.
 */
export const FRONT_METHODS: unique symbol = Symbol.for("schoolhouse.front-methods");

/**
 * An endpoint whose requests never meet proxy.ts (`Endpoint.skipsProxy`): a fixed API path that
 * needs nothing from the proxy but the edge guard (no gate, no rewrite, not answered there). Each
 * handler runs the guard itself first, with the same 400s: a fixed path has no escapes of its
 * own (one with malformed escapes is another path, and meets the proxy), so what is left to
 * refuse here is the Host and a NUL in the query.
 */
export function skipsProxy<E extends Endpoint>(endpoint: E): E & { skipsProxy: true } {
  if (endpoint.proxy) throw new Error("route table: an endpoint the proxy answers cannot skip it");
  return { ...withGuardedMethods(endpoint, Object.keys(endpoint.methods) as Method[]), skipsProxy: true };
}

/**
 * An endpoint the proxy answers (`proxy.methods`) whose `front` methods the OAuth front answers
 * too, under the production entry (server/start.mjs), where the request never meets the proxy:
 * those handlers run the edge guard themselves first. Under Next the proxy has run it already;
 * a second run finds nothing more (the guard only refuses). Every other method stays as it was.
 */
export function alsoInFront<E extends Endpoint & { front: readonly Method[] }>(endpoint: E): E {
  for (const m of endpoint.front) {
    if (!endpoint.proxy?.methods.includes(m)) throw new Error(`route table: front method ${m} is not answered in the proxy (use skipsProxy)`);
  }
  return withGuardedMethods(endpoint, endpoint.front);
}

/** The edge guard's answer to a request no route can serve, or null. */
const refusal = (request: PlainRequest): Response | null => guardEdge({ url: request.url, headers: request.headers, trustProxy: env().TRUST_PROXY });

/** The endpoint with `methods` wrapped in the edge guard, and its `front` methods marked for the front. */
function withGuardedMethods<E extends Endpoint>(endpoint: E, guardedMethods: readonly Method[]): E {
  const methods: Partial<Record<Method, Handler>> = { ...endpoint.methods };
  const guarded = new Map<Handler, PlainMarked & { [FRONT_METHODS]?: Method[] }>();
  for (const method of guardedMethods) {
    const handler: PlainMarked | undefined = endpoint.methods[method];
    if (!handler) throw new Error(`route table: method ${method} is not a method of the endpoint`);
    // HEAD and GET often share one handler object; they keep sharing one.
    let wrapped = guarded.get(handler);
    if (!wrapped) {
      wrapped = (request, ctx) => refusal(request) ?? handler(request, ctx);
      const plain = handler[FRONT_PLAIN];
      if (plain) {
        wrapped[FRONT_PLAIN] = async (request) => {
          const refused = refusal(request);
          return refused ? fromResponse(refused) : plain(request);
        };
      }
      guarded.set(handler, wrapped);
    }
    // The front runs no proxy, so it may only take a handler that runs the guard itself.
    if (endpoint.front?.includes(method)) (wrapped[FRONT_METHODS] ??= []).push(method);
    methods[method] = wrapped;
  }
  for (const m of endpoint.front ?? []) if (!endpoint.methods[m]) throw new Error(`route table: front method ${m} is not a method of the endpoint`);
  return { ...endpoint, methods: methods as E["methods"] };
}
