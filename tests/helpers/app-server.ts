// Serves the App Router's route handlers (app/**/route.ts) over real HTTP on a random port,
// against whatever database the test file installed. Pages and proxy.ts need the real Next.js
// server and are covered by the Playwright suite (tests/e2e).
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { documentedOperation, openApiViolation } from "./openapi-conformance";

const APP_DIR = path.resolve(import.meta.dirname, "../../app");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
type RouteModule = Partial<Record<(typeof METHODS)[number], Handler>>;

interface Route {
  file: string;
  segments: string[];
  /** Static segments first so `/api/md/home` wins over `/api/md/[slug]`. */
  rank: number[];
}

function findRoutes(dir: string, segments: string[] = []): Route[] {
  const routes: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("_")) continue;
      const next = /^\(.*\)$/.test(entry.name) ? segments : [...segments, entry.name];
      routes.push(...findRoutes(path.join(dir, entry.name), next));
    } else if (/^route\.tsx?$/.test(entry.name)) {
      const rank = segments.map((s) => (s.startsWith("[[...") ? 3 : s.startsWith("[...") ? 2 : s.startsWith("[") ? 1 : 0));
      routes.push({ file: path.join(dir, entry.name), segments, rank });
    }
  }
  return routes;
}

function compare(a: Route, b: Route): number {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (a.rank[i] ?? -1) - (b.rank[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function match(route: Route, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i]!;
    const catchAll = /^\[\[?\.\.\.(\w+)\]\]?$/.exec(seg);
    if (catchAll) {
      const rest = parts.slice(i);
      if (!rest.length && !seg.startsWith("[[")) return null;
      params[catchAll[1]!] = rest;
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    const dyn = /^\[(\w+)\]$/.exec(seg);
    if (dyn) params[dyn[1]!] = part;
    else if (seg !== part) return null;
  }
  return parts.length === route.segments.length ? params : null;
}

/**
 * The response, or a 500 saying how it differs from /openapi.json when its operation is documented
 * there (tests/helpers/openapi-conformance.ts): every test that reaches a documented operation
 * checks the document too.
 */
async function conforming(method: string, pathname: string, response: Response): Promise<Response> {
  const operation = documentedOperation(method, pathname);
  if (!operation) return response;
  const body = response.body ? await response.text() : "";
  const violation = openApiViolation(operation, { status: response.status, contentType: response.headers.get("content-type"), body });
  if (violation) {
    const message = `OpenAPI conformance: ${method} ${pathname}: ${violation}`;
    console.error(message);
    return new Response(message, { status: 500, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  // The body was read to check it: the same bytes again, with the same status and headers.
  return new Response(response.body === null ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

export interface AppServer {
  url: string;
  fetch(pathOrUrl: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function startAppServer(options: { host?: string } = {}): Promise<AppServer> {
  const routes = findRoutes(APP_DIR).sort(compare);
  const modules = new Map<string, Promise<RouteModule>>();
  const load = (file: string) => {
    if (!modules.has(file)) modules.set(file, import(/* @vite-ignore */ file) as Promise<RouteModule>);
    return modules.get(file)!;
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // Like `next start`: request.url's scheme follows X-Forwarded-Proto, whoever sent it.
    const scheme = String(req.headers["x-forwarded-proto"] ?? "").includes("https") ? "https" : "http";
    const url = new URL(req.url ?? "/", `${scheme}://${req.headers.host ?? "localhost"}`);
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    let found: { route: Route; params: Record<string, string | string[]> } | undefined;
    for (const route of routes) {
      const params = match(route, parts);
      if (params) {
        found = { route, params };
        break;
      }
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
      else if (v !== undefined) headers.set(k, v);
    }
    let response: Response;
    if (!found) {
      response = new Response("Not Found", { status: 404 });
    } else {
      const mod = await load(found.route.file);
      const method = (req.method ?? "GET").toUpperCase() as (typeof METHODS)[number];
      // Like Next.js: HEAD falls back to GET without a body; a missing method is a 405.
      const fn = mod[method] ?? (method === "HEAD" ? mod.GET : undefined);
      if (!fn) {
        const allow = METHODS.filter((m) => mod[m] || (m === "HEAD" && mod.GET));
        response = new Response(null, { status: 405, headers: { allow: allow.join(", ") } });
      } else {
        const hasBody = method !== "GET" && method !== "HEAD";
        // Node needs duplex "half" for a streamed request body.
        const init = { method, headers, body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined, duplex: "half" };
        const request = new NextRequest(url, init as ConstructorParameters<typeof NextRequest>[1]);
        try {
          response = await fn(request, { params: Promise.resolve(found.params) });
        } catch (err) {
          console.error(err);
          response = new Response("Internal Server Error", { status: 500 });
        }
        if (method === "HEAD") response = new Response(null, response);
      }
    }
    response = await conforming(req.method ?? "GET", url.pathname, response);
    res.statusCode = response.status;
    response.headers.forEach((v, k) => {
      if (k === "set-cookie") return;
      res.setHeader(k, v);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) res.setHeader("set-cookie", cookies);
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    }
    res.end();
    // A handler that answered without reading the whole body (a 400 or 401 before the body, a 413
    // at the limit): what Node's server does with an unread body (IncomingMessage._dump), which the
    // web stream wrapping it had paused, so a client still sending is not left waiting.
    if (!req.complete && !req.destroyed) {
      req.removeAllListeners("data");
      req.resume();
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error(err);
      res.statusCode = 500;
      res.end();
    });
  });
  // Node's global agent keeps idle sockets 5 s, the server's default keep-alive is 5 s too: a
  // request sent on a socket the server is closing at that moment fails with ECONNRESET (seen on
  // a loaded machine). The server outlives the client's idle sockets instead.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const defaultHost = options.host;
  return {
    url,
    fetch(pathOrUrl, init = {}) {
      const headers = new Headers(init.headers);
      if (defaultHost && !headers.has("host")) headers.set("host", defaultHost);
      return fetchWithHost(new URL(pathOrUrl, url), { ...init, headers });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A test may leave a request half-sent (body-limit tests) or a keep-alive socket idle:
        // the suite is over, so they go too.
        server.closeAllConnections();
      }),
  };
}

/** fetch() that honours a Host header (node's fetch drops it), using node:http underneath. */
async function fetchWithHost(url: URL, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  const body = init.body === undefined || init.body === null ? undefined : await new Response(init.body).arrayBuffer();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: init.method ?? "GET",
        headers: Object.fromEntries(headers.entries()),
        signal: init.signal ?? undefined,
      },
      (res) => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (Array.isArray(v)) v.forEach((x) => out.append(k, x));
          else if (v !== undefined) out.set(k, String(v));
        }
        const status = res.statusCode ?? 500;
        const nullBody = status === 204 || status === 304 || (init.method ?? "GET").toUpperCase() === "HEAD";
        resolve(new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream), { status, headers: out }));
      },
    );
    req.on("error", reject);
    if (body) req.write(Buffer.from(body));
    req.end();
  });
}
