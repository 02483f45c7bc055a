// The OAuth front's adapter between node:http and the Fetch API: the Request a route handler gets
// and the way its Response is written, each as Next 16's own route stage does it
// (next/dist/server/web/spec-extension/adapters/next-request.js, next/dist/server/send-response.js),
// so a handler cannot tell which way its request came in (docs/decisions.md, "The OAuth front").
// Plain JavaScript: the production entry loads no TypeScript (types: ./node-http.d.mts).
import querystring from "node:querystring";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * Headers a client may not send to a route: Next drops them before routing
 * (next/dist/server/lib/server-ipc/utils.js, INTERNAL_HEADERS). None of our handlers reads them;
 * dropped here too, so the front's request is Next's request.
 */
const INTERNAL_HEADERS = new Set([
  "x-middleware-rewrite",
  "x-middleware-redirect",
  "x-middleware-set-cookie",
  "x-middleware-skip",
  "x-middleware-override-headers",
  "x-middleware-next",
  "x-now-route-matches",
  "x-matched-path",
  "x-nextjs-data",
  "x-next-resume-state-length",
  "next-resume",
]);

/** Response headers Next never copies from a route's Response: it frames the body itself. */
const FRAMING_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding"]);

/** Response headers Next appends when the handler set them more than once; any other repeated one keeps its first value. */
const REPEATABLE = new Set(["set-cookie", "www-authenticate", "proxy-authenticate", "vary"]);

/** Why the request's signal aborts: the client went away before the answer was sent (Next's name for it). */
export class ResponseAborted extends Error {
  name = "ResponseAborted";
}

/**
 * The URL Next gives a route handler: the server's own hostname and port (never the Host header,
 * which the handlers read themselves through lib/tenancy/request-context.ts), https only when
 * X-Forwarded-Proto says so (next/dist/server/lib/router-utils/resolve-routes.js, initURL).
 * @param {import("node:http").IncomingMessage} req
 * @param {{ hostname: string | undefined; port: number }} server
 */
export function requestUrl(req, server) {
  const proto = req.socket && /** @type {{ encrypted?: boolean }} */ (req.socket).encrypted ? "https" : req.headers["x-forwarded-proto"]?.includes("https") ? "https" : "http";
  const host = server.hostname || "localhost";
  // formatHostname: an IPv6 literal in brackets.
  const formatted = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return `${proto}://${formatted}:${server.port}${nextPath(req.url ?? "/")}`;
}

/**
 * The path and query as Next hands them to a route: the query parsed as Node's `querystring` parses
 * it (lenient escapes, at most 1,000 keys), copied into Next's query object (so `__proto__` is
 * lost) and serialized again as URLSearchParams (repeated keys grouped under their first
 * appearance), the fragment dropped. So malformed escapes arrive re-encoded (`%zz` as `%25zz`,
 * invalid UTF-8 as U+FFFD), which the edge guard's callers rely on (docs/decisions.md, "Edge
 * guard"). The path is left as sent: the front only takes exact fixed paths.
 * @param {string} raw the request target, `/path?query`
 */
export function nextPath(raw) {
  const hash = raw.indexOf("#");
  const target = hash < 0 ? raw : raw.slice(0, hash);
  const q = target.indexOf("?");
  if (q < 0) return target;
  const query = Object.assign({}, querystring.parse(target.slice(q + 1)));
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else params.set(key, value);
  }
  const search = params.toString();
  return target.slice(0, q) + (search ? `?${search}` : "");
}

/**
 * An AbortSignal that aborts when the client goes away before the response is finished: the
 * response's 'close' before it has been written out (Next's signalFromNodeResponse).
 * @param {import("node:http").ServerResponse} res
 */
export function signalFromResponse(res) {
  if (res.errored || res.destroyed) return AbortSignal.abort(res.errored ?? new ResponseAborted());
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort(new ResponseAborted());
  });
  return controller.signal;
}

/**
 * Node's parsed headers as Fetch Headers, as Next passes them to a route: repeated ones joined as
 * Node joins them (Set-Cookie and Cookie included), Next's internal headers dropped.
 * @param {import("node:http").IncomingMessage} req
 */
export function requestHeaders(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || INTERNAL_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, value);
  }
  return headers;
}

/**
 * The Fetch Request of a node:http request, as Next builds it for a route handler: its URL
 * (`requestUrl`), its headers (`requestHeaders`), the body streamed from the socket (read as the
 * handler reads it, so lib/http/body.ts's limits stop reading at the limit), and `signal`.
 * @param {import("node:http").IncomingMessage} req
 * @param {{ hostname: string | undefined; port: number; signal: AbortSignal }} options
 * @returns {Request}
 */
export function toRequest(req, options) {
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD" && !options.signal.aborted;
  return new Request(requestUrl(req, options), {
    method,
    headers: requestHeaders(req),
    signal: options.signal,
    // An async iterable body streams: undici pulls the socket's chunks as the handler reads.
    ...(hasBody ? { body: /** @type {any} */ (req), duplex: "half" } : {}),
  });
}

/**
 * The plain request (lib/http/plain.ts) of a node:http request: the URL and headers a Request would
 * have (`requestUrl`, `requestHeaders`) and the body's chunks as the socket delivers them
 * (`bodyChunks`), with no Request, body stream or signal built.
 * @param {import("node:http").IncomingMessage} req
 * @param {{ hostname: string | undefined; port: number }} server
 * @returns {import("../lib/http/plain").PlainRequest}
 */
export function plainRequest(req, server) {
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return { method, url: requestUrl(req, server), headers: requestHeaders(req), body: hasBody ? bodyChunks(req) : null };
}

/**
 * A node:http request's body as an async iterable of its chunks, read one at a time (the socket is
 * paused between reads). A reader that stops early (a body past its limit) leaves the rest unread
 * and the socket open for the answer, whose `Connection: close` ends it; a Readable's own iterator
 * would destroy the socket instead. A client that goes away mid-body is an error.
 * @param {import("node:http").IncomingMessage} req
 * @returns {AsyncIterable<Uint8Array>}
 */
export function bodyChunks(req) {
  return {
    [Symbol.asyncIterator]() {
      /** @type {Buffer[]} */
      const queue = [];
      let ended = false;
      /** @type {Error | null} */
      let failure = null;
      /** @type {(() => void) | null} */
      let wake = null;
      const onData = (/** @type {Buffer} */ chunk) => {
        queue.push(chunk);
        req.pause();
        wake?.();
      };
      const onEnd = () => {
        ended = true;
        wake?.();
      };
      const onError = (/** @type {Error} */ err) => {
        failure ??= err;
        wake?.();
      };
      const gone = () => new ResponseAborted("The client went away before the whole body arrived");
      const onClose = () => {
        if (!ended) failure ??= gone();
        wake?.();
      };
      const detach = () => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onError);
        req.off("close", onClose);
      };
      // A handler may start reading late (after a look-up): a request that is over by then
      // emits nothing more, so its state is taken as it is.
      if (req.readableEnded) ended = true;
      else if (req.destroyed) failure = req.errored ?? gone();
      else {
        req.on("data", onData);
        req.on("end", onEnd);
        req.on("error", onError);
        req.on("close", onClose);
      }
      return {
        async next() {
          for (;;) {
            const chunk = queue.shift();
            if (chunk) return { done: false, value: chunk };
            if (failure || ended) {
              detach();
              if (failure) throw failure;
              return { done: true, value: undefined };
            }
            await new Promise((resolve) => {
              wake = () => resolve(undefined);
              req.resume();
            });
            wake = null;
          }
        },
        async return() {
          detach();
          req.pause();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/**
 * Writes a route's Response to node:http as Next's sendResponse does: status and status text;
 * each header once (the first value), Set-Cookie / WWW-Authenticate / Proxy-Authenticate / Vary
 * as many times as set; `configHeaders` (next.config.mjs's `headers()` for the path) where the
 * Response did not set them; no framing headers of the Response (Node frames the body); the body
 * compressed as Next's `compress` does (`compression`), else streamed with backpressure; none for
 * HEAD. A client that goes away cancels the body.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 * @param {{ configHeaders?: ReadonlyArray<readonly [string, string]> }} [options]
 * @returns {Promise<void>}
 */
export async function writeResponse(req, res, response, options = {}) {
  res.statusCode = response.status;
  res.statusMessage = response.statusText;
  setHeaders(res, response.headers, options.configHeaders);
  if (!response.body || req.method === "HEAD") {
    // An unread body holds nothing open; cancel it so its source is released.
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  const coding = negotiateCoding(req, res, response.headers);
  const reader = response.body.getReader();
  const onClose = () => void reader.cancel(new ResponseAborted()).catch(() => {});
  res.once("close", onClose);
  try {
    if (coding) {
      // The front's answers are JSON of bounded size: read whole, then sent in one piece.
      const chunks = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
      if (res.destroyed) return;
      // A Response made from a string (every JSON handler's) streams as one chunk: sent as it is,
      // not copied (the fairness bench's abuser reads pages of half a megabyte).
      await endWith(res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), coding);
      return;
    }
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
    }
    res.end();
  } catch (err) {
    // The client went away (the read was cancelled) or the body errored: nothing more can be sent.
    if (!res.destroyed) res.destroy(/** @type {Error} */ (err));
  } finally {
    res.off("close", onClose);
  }
}

/**
 * Writes a plain answer (lib/http/plain.ts) as `writeResponse` writes the Response it stands for
 * (the same headers in the same order, next.config.mjs's headers, Next's compression), sent in
 * one piece with its length.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {import("../lib/http/plain").PlainResponse} answer
 * @param {{ configHeaders?: ReadonlyArray<readonly [string, string]> }} [options]
 * @returns {Promise<void>}
 */
export async function writePlain(req, res, answer, options = {}) {
  // Headers sort and validate the names as the Response's would, which types a string body.
  const headers = new Headers(answer.headers);
  if (!headers.has("content-type")) headers.set("content-type", "text/plain;charset=UTF-8");
  res.statusCode = answer.status;
  setHeaders(res, headers, options.configHeaders);
  if (req.method === "HEAD") return void res.end();
  await endWith(res, Buffer.from(answer.body), negotiateCoding(req, res, headers));
}

/**
 * The coding a body with these headers goes out in (`compression`'s choice: none for an
 * incompressible one, else the client's preference), after adding Accept-Encoding to Vary for
 * every compressible one, whatever the client sent.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {Headers} headers
 * @returns {"gzip" | "deflate" | null}
 */
function negotiateCoding(req, res, headers) {
  if (!isCompressible(headers)) return null;
  varyOnAcceptEncoding(res);
  return contentCoding(req.headers["accept-encoding"]);
}

/**
 * A response's headers as Next's sendResponse sets them: each once (the first value),
 * Set-Cookie / WWW-Authenticate / Proxy-Authenticate / Vary as many times as set, no framing
 * headers, then `configHeaders` where the response did not set them.
 * @param {import("node:http").ServerResponse} res
 * @param {Headers} headers
 * @param {ReadonlyArray<readonly [string, string]> | undefined} configHeaders
 */
function setHeaders(res, headers, configHeaders) {
  for (const cookie of headers.getSetCookie()) res.appendHeader("set-cookie", cookie);
  headers.forEach((value, name) => {
    if (name === "set-cookie" || name === "x-middleware-set-cookie" || FRAMING_HEADERS.has(name)) return;
    if (REPEATABLE.has(name) || res.getHeader(name) === undefined) res.appendHeader(name, value);
  });
  for (const [name, value] of configHeaders ?? []) if (res.getHeader(name) === undefined) res.setHeader(name, value);
}

/**
 * Ends the response with a whole body: compressed in `coding` from COMPRESSION_THRESHOLD up, as
 * it is below it (or with no coding).
 * @param {import("node:http").ServerResponse} res
 * @param {Uint8Array} body
 * @param {"gzip" | "deflate" | null} coding
 */
async function endWith(res, body, coding) {
  if (!coding || body.length < COMPRESSION_THRESHOLD) return void res.end(body);
  const compressed = await COMPRESS[coding](body);
  if (res.destroyed) return;
  res.setHeader("content-encoding", coding);
  res.end(compressed);
}

/** Smaller bodies are sent as they are: `compression`'s default threshold, which Next keeps. */
export const COMPRESSION_THRESHOLD = 1024;

const COMPRESS = { gzip: promisify(zlib.gzip), deflate: promisify(zlib.deflate) };

/**
 * Whether `compression` (Next's `compress`) would compress a response with these headers: a
 * compressible media type (text, JSON, XML, JavaScript; not an event stream, which is sent as it
 * is written), not already encoded, and no `Cache-Control: no-transform`.
 * @param {Headers} headers
 */
export function isCompressible(headers) {
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!type || type === "text/event-stream") return false;
  if (!/^text\/|^application\/(?:json|javascript|xml|graphql-response\+json|[\w.-]+\+(?:json|xml))$/.test(type)) return false;
  if (headers.has("content-encoding")) return false;
  return !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get("cache-control") ?? "");
}

/**
 * The coding `compression` picks from Accept-Encoding: gzip or deflate, whichever the client
 * weighs higher (gzip on a tie; `*` stands for any not named), none when neither is acceptable.
 * @param {string | undefined} header
 * @returns {"gzip" | "deflate" | null}
 */
export function contentCoding(header) {
  if (!header) return null;
  /** @type {Map<string, number>} */
  const q = new Map();
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p)).find(Boolean);
    const value = weight ? Number(weight[1]) : 1;
    if (!q.has(coding) || value > /** @type {number} */ (q.get(coding))) q.set(coding, value);
  }
  const weightOf = (/** @type {string} */ c) => q.get(c) ?? q.get("*") ?? 0;
  const gzip = weightOf("gzip");
  const deflate = weightOf("deflate");
  if (gzip <= 0 && deflate <= 0) return null;
  return gzip >= deflate ? "gzip" : "deflate";
}

/** Adds Accept-Encoding to Vary, as `compression` does for every compressible response. */
function varyOnAcceptEncoding(/** @type {import("node:http").ServerResponse} */ res) {
  const current = res.getHeader("vary");
  const joined = Array.isArray(current) ? current.join(", ") : current === undefined ? "" : String(current);
  const values = joined.split(",").map((v) => v.trim().toLowerCase());
  if (values.includes("*") || values.includes("accept-encoding")) return;
  res.setHeader("vary", joined ? `${joined}, Accept-Encoding` : "Accept-Encoding");
}

/**
 * Until the socket takes more (or the client is gone), with no listener left behind.
 * @param {import("node:http").ServerResponse} res
 * @returns {Promise<void>}
 */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
