// The front (docs/decisions.md, "The OAuth front"): requests for the route table's `front` paths
// and methods (the hot OAuth JSON endpoints, POST of the Admin API and of MCP) are answered here,
// in front of Next's request pipeline, by the handler of Next's own compiled route module for the
// path: the very function object Next would call, in the same module instance (the table's
// handlers, their lazy imports, the globalThis singletons). Everything else, and any path whose
// module cannot be loaded, is left to Next unchanged.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { plainRequest, signalFromResponse, toRequest, writePlain, writeResponse } from "./node-http.mjs";

/** The key app/_routes/endpoint.ts (FRONT_METHODS) sets on a handler the front may answer with. */
export const FRONT_METHODS = Symbol.for("schoolhouse.front-methods");

/**
 * The key app/_routes/endpoint.ts (FRONT_PLAIN) sets on a handler written on plain requests
 * (lib/http/plain.ts): the same endpoint as a function of a plain request, which the front calls
 * instead of building a Request and reading a Response.
 */
export const FRONT_PLAIN = Symbol.for("schoolhouse.front-plain");

/** A fixed route's context, as proxy.ts passes it (no dynamic segments). */
const NO_PARAMS = { params: Promise.resolve({}) };

/**
 * Fixed-path routes of the build: the app-paths manifest's route modules without dynamic segments,
 * by the path they serve (route groups dropped). Pages and dynamic routes are never the front's.
 * @param {string} distDir
 * @returns {Map<string, string>} path → absolute file of the compiled route module
 */
export function fixedRoutes(distDir) {
  const serverDir = path.join(distDir, "server");
  /** @type {Record<string, string>} */
  const manifest = JSON.parse(readFileSync(path.join(serverDir, "app-paths-manifest.json"), "utf8"));
  const routes = new Map();
  for (const [appPath, file] of Object.entries(manifest)) {
    if (!appPath.endsWith("/route") || /[[%]/.test(appPath)) continue;
    const segments = appPath.slice(0, -"/route".length).split("/").filter((s) => s && !/^\(.*\)$/.test(s));
    if (segments.some((s) => s.startsWith("_") || s.startsWith("@"))) continue;
    routes.set(`/${segments.join("/")}`, path.join(serverDir, file));
  }
  return routes;
}

/**
 * next.config.mjs's `headers()` for each of `paths`, as the build compiled them
 * (routes-manifest.json): Next sets them on every response for a matching path, whoever answers.
 * A path that a rule with conditions (`has`, `missing`) or with a parameter in a value matches is
 * left out of the map: the front does not evaluate those, so such a path stays Next's.
 * @param {string} distDir
 * @param {Iterable<string>} paths
 * @returns {Map<string, Array<[string, string]>>} path → headers (in the config's order; a later rule's value replaces an earlier one's)
 */
export function configHeaders(distDir, paths) {
  /** @type {{ headers?: Array<{ regex: string; headers: Array<{ key: string; value: string }>; has?: unknown; missing?: unknown }> }} */
  const manifest = JSON.parse(readFileSync(path.join(distDir, "routes-manifest.json"), "utf8"));
  const rules = (manifest.headers ?? []).map((rule) => ({ ...rule, pattern: new RegExp(rule.regex) }));
  const out = new Map();
  for (const p of paths) {
    /** @type {Map<string, [string, string]>} */
    const found = new Map();
    let plain = true;
    for (const rule of rules) {
      if (!rule.pattern.test(p)) continue;
      if (rule.has || rule.missing || rule.headers.some((h) => /:\w/.test(h.key) || /(?:^|[^\w]):[A-Za-z_]/.test(h.value))) plain = false;
      for (const h of rule.headers) found.set(h.key.toLowerCase(), [h.key, h.value]);
    }
    if (plain) out.set(p, [...found.values()]);
  }
  return out;
}

/**
 * @typedef {{ fetch: Function; plain: Function | undefined }} FrontHandler the handler Next would
 * call, and its plain form when it has one (FRONT_PLAIN)
 */

/**
 * The methods a compiled route module lets the front answer, each with the handler Next would call
 * for it: an exported method handler carrying FRONT_METHODS with that method. Null when the module
 * is not a route module as this Next build makes them (then Next keeps the path).
 * @param {unknown} mod the route module's exports (`routeModule`, an AppRouteRouteModule)
 * @returns {Promise<Map<string, FrontHandler> | null>}
 */
export async function frontHandlers(mod) {
  const routeModule = /** @type {{ routeModule?: { ensureUserland?: () => Promise<void>; userland?: Record<string, unknown> } }} */ (mod)?.routeModule;
  if (!routeModule || typeof routeModule.ensureUserland !== "function") return null;
  await routeModule.ensureUserland();
  const userland = routeModule.userland;
  if (!userland) return null;
  const handlers = new Map();
  for (const [method, handler] of Object.entries(userland)) {
    if (typeof handler !== "function") continue;
    const marked = /** @type {{ [FRONT_METHODS]?: unknown }} */ (handler)[FRONT_METHODS];
    if (!Array.isArray(marked) || !marked.includes(method)) continue;
    const plain = /** @type {{ [FRONT_PLAIN]?: unknown }} */ (handler)[FRONT_PLAIN];
    handlers.set(method, { fetch: handler, plain: typeof plain === "function" ? plain : undefined });
  }
  return handlers;
}

/**
 * @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void} Listener
 * @typedef {{ distDir: string; hostname: string | undefined; port: number; next: Listener; log?: (message: string, err?: unknown) => void }} FrontOptions
 */

/**
 * The request listener of the production server: the front's paths and methods here, everything
 * else to `next`. A route module is loaded on the first request for its path (as Next loads it;
 * the same file, so the same module instance) and its front handlers are kept.
 * @param {FrontOptions} options
 * @returns {Listener}
 */
export function createFront(options) {
  const routes = fixedRoutes(options.distDir);
  const headersOf = configHeaders(options.distDir, routes.keys());
  for (const p of routes.keys()) if (!headersOf.has(p)) routes.delete(p);
  const requireModule = createRequire(import.meta.url);
  const log = options.log ?? ((message, err) => console.error(message, err ?? ""));
  /** @type {Map<string, Promise<Map<string, FrontHandler> | null>>} */
  const loaded = new Map();

  /** @param {string} pathname */
  const handlersOf = (pathname) => {
    let found = loaded.get(pathname);
    if (!found) {
      const file = /** @type {string} */ (routes.get(pathname));
      found = (async () => frontHandlers(requireModule(file)))().catch((err) => {
        log(`front: ${pathname} stays with Next: its route module did not load`, err);
        return null;
      });
      loaded.set(pathname, found);
    }
    return found;
  };

  /** @type {Listener} */
  const listener = (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    // The raw path, exactly: a trailing slash, an escape or `//` is another path, and Next's.
    const pathname = q < 0 ? url : url.slice(0, q);
    if (!routes.has(pathname)) return options.next(req, res);
    handlersOf(pathname).then(
      (handlers) => {
        const handler = handlers?.get(req.method ?? "");
        if (!handler) return options.next(req, res);
        return answer(req, res, handler, headersOf.get(pathname) ?? []);
      },
      (err) => fail(res, err),
    );
  };

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {FrontHandler} handler
   * @param {ReadonlyArray<readonly [string, string]>} headers next.config.mjs's headers for the path
   */
  async function answer(req, res, handler, headers) {
    try {
      if (handler.plain) {
        const answered = await handler.plain(plainRequest(req, { hostname: options.hostname, port: options.port }));
        if (typeof answered?.status !== "number" || typeof answered.body !== "string") throw new Error(`the plain handler for ${req.method} ${req.url} did not return a plain answer`);
        await writePlain(req, res, answered, { configHeaders: headers });
        return;
      }
      const request = toRequest(req, { hostname: options.hostname, port: options.port, signal: signalFromResponse(res) });
      const response = await handler.fetch(request, NO_PARAMS);
      if (!(response instanceof Response)) throw new Error(`the handler for ${req.method} ${req.url} did not return a Response`);
      await writeResponse(req, res, response, { configHeaders: headers });
    } catch (err) {
      fail(res, err);
    }
  }

  /**
   * Next's answer to a route handler that throws: logged, 500 with an empty body.
   * @param {import("node:http").ServerResponse} res
   * @param {unknown} err
   */
  function fail(res, err) {
    log("front: a route handler failed", err);
    if (res.headersSent) res.destroy();
    else {
      res.statusCode = 500;
      res.end();
    }
  }

  return listener;
}
