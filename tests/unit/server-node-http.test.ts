// The OAuth front's node:http ⇄ Fetch adapter (server/node-http.mjs): the Request a table handler
// gets is the one Next's route stage gives it, and its Response reaches the client as Next writes
// it. Each case runs a real node:http server with the adapter and a real client on a socket.
import http from "node:http";
import zlib from "node:zlib";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { BodyTooLargeError, readBodyText, REFUSED_BODY_HEADERS } from "@/lib/http/body";
import fc from "fast-check";
import { toResponse, type PlainRequest, type PlainResponse } from "@/lib/http/plain";
import { COMPRESSION_THRESHOLD, contentCoding, isCompressible, nextPath, plainRequest, signalFromResponse, toRequest, writePlain, writeResponse } from "@/server/node-http.mjs";
import { endlessChunkedPost } from "../helpers/partial-post";

type Handler = (request: Request) => Response | Promise<Response>;
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

/** A server that answers every request through the adapter with `handler`, as the front does. */
async function serve(handler: Handler, hostname?: string, configHeaders: Array<[string, string]> = []): Promise<number> {
  let port = 0;
  const server = http.createServer((req, res) => {
    const request = toRequest(req, { hostname, port, signal: signalFromResponse(res) });
    Promise.resolve(handler(request)).then((response) => writeResponse(req, res, response, { configHeaders }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  return port;
}

/** Sends raw bytes and reads the whole answer until the server closes or `until` matches. */
function raw(port: number, request: string | Buffer[], until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.on("data", (d) => {
      out += d;
      if (until?.test(out)) {
        socket.destroy();
        resolve(out);
      }
    });
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
    if (typeof request === "string") socket.write(request);
    else for (const part of request) socket.write(part);
  });
}

describe("the Request a handler gets", () => {
  it("has Next's URL (the server's hostname and port, the raw path and query) and the client's Host", async () => {
    let seen: Request | undefined;
    const port = await serve((r) => ((seen = r), new Response("ok")), "localhost");
    await raw(port, "GET /api/oauth/userinfo?a=1&b=%zz HTTP/1.1\r\nHost: demo.example.test:8080\r\nConnection: close\r\n\r\n");
    expect(seen!.url).toBe(`http://localhost:${port}/api/oauth/userinfo?a=1&b=%25zz`);
    expect(seen!.headers.get("host")).toBe("demo.example.test:8080");
  });

  // Observed under `next start` of this build (Next 16.4.6): what a route's request.url holds for
  // each request target. Malformed escapes arrive re-encoded, which the edge guard relies on.
  it.each([
    ["/api/oauth/userinfo", "/api/oauth/userinfo"],
    ["/api/oauth/userinfo?x=%zz", "/api/oauth/userinfo?x=%25zz"],
    ["/api/oauth/userinfo?x%", "/api/oauth/userinfo?x%25="],
    ["/api/oauth/userinfo?x=%FF", "/api/oauth/userinfo?x=%EF%BF%BD"],
    ["/api/oauth/userinfo?x=%E0%A4%A", "/api/oauth/userinfo?x=%EF%BF%BD%25A"],
    ["/api/oauth/userinfo?x=%00", "/api/oauth/userinfo?x=%00"],
    ["/api/oauth/userinfo?a=1&b=2&a=3", "/api/oauth/userinfo?a=1&a=3&b=2"],
    ["/api/oauth/userinfo?b=1&2=x&1=y", "/api/oauth/userinfo?1=y&2=x&b=1"],
    ["/api/oauth/userinfo?a", "/api/oauth/userinfo?a="],
    ["/api/oauth/userinfo??", "/api/oauth/userinfo?%3F="],
    ["/api/oauth/userinfo?a=1&&b", "/api/oauth/userinfo?a=1&b="],
    ["/api/oauth/userinfo?a+b=c+d", "/api/oauth/userinfo?a+b=c+d"],
    ["/api/oauth/userinfo?a=%2B+%20", "/api/oauth/userinfo?a=%2B++"],
    ["/api/oauth/userinfo?x=1;y=2", "/api/oauth/userinfo?x=1%3By%3D2"],
    ["/api/oauth/userinfo?k[]=1", "/api/oauth/userinfo?k%5B%5D=1"],
    ["/api/oauth/userinfo?a=1#frag", "/api/oauth/userinfo?a=1"],
    ["/api/oauth/userinfo?constructor=1", "/api/oauth/userinfo?constructor=1"],
    ["/api/oauth/userinfo?__proto__=x&a=1", "/api/oauth/userinfo?a=1"],
    ["/api/oauth/userinfo?q=caf%C3%A9&x=a%2Fb", "/api/oauth/userinfo?q=caf%C3%A9&x=a%2Fb"],
  ])("takes the query as Next re-serializes it: %s → %s", (raw, next) => {
    expect(nextPath(raw)).toBe(next);
  });

  it("is https only when X-Forwarded-Proto says so (the handlers decide whether to trust it), localhost without -H", async () => {
    let seen: Request | undefined;
    const port = await serve((r) => ((seen = r), new Response("ok")));
    await raw(port, "GET /x HTTP/1.1\r\nHost: a.test\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: b.test\r\nConnection: close\r\n\r\n");
    expect(seen!.url).toBe(`https://localhost:${port}/x`);
    expect(seen!.headers.get("x-forwarded-host")).toBe("b.test");
  });

  it("carries every header, repeated ones as Node joins them (a second Authorization is dropped, as in Next)", async () => {
    let seen: Request | undefined;
    const port = await serve((r) => ((seen = r), new Response("ok")));
    await raw(
      port,
      [
        "POST /x HTTP/1.1\r\nHost: a.test\r\nAccept: text/plain\r\nAccept: application/json\r\n",
        "Cookie: a=1\r\nCookie: b=2\r\nAuthorization: Basic Zmlyc3Q=\r\nAuthorization: Basic c2Vjb25k\r\n",
        "X-Middleware-Rewrite: /elsewhere\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
      ].join(""),
    );
    expect(seen!.method).toBe("POST");
    expect(seen!.headers.get("accept")).toBe("text/plain, application/json");
    expect(seen!.headers.get("cookie")).toBe("a=1; b=2");
    expect(seen!.headers.get("authorization")).toBe("Basic Zmlyc3Q=");
    // Next's internal headers never reach a route from outside.
    expect(seen!.headers.has("x-middleware-rewrite")).toBe(false);
  });

  it("streams a chunked body to the handler", async () => {
    const port = await serve(async (r) => new Response(`got ${await r.text()}`));
    const answer = await raw(port, "POST /x HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain("got hello world");
  });

  it("aborts the handler's signal when the client goes away before the answer", async () => {
    let aborted: unknown;
    const done = new Promise<void>((resolve) => {
      void serve(
        (r) =>
          new Promise<Response>((answer) => {
            r.signal.addEventListener("abort", () => {
              aborted = r.signal.reason;
              resolve();
              answer(new Response("late"));
            });
          }),
      ).then((port) => {
        const socket = connect(port, "127.0.0.1");
        socket.write("GET /x HTTP/1.1\r\nHost: a.test\r\n\r\n");
        setTimeout(() => socket.destroy(), 100);
      });
    });
    await done;
    expect((aborted as Error).name).toBe("ResponseAborted");
  });

  it("does not abort the signal of a request that was answered", async () => {
    let request: Request | undefined;
    const port = await serve((r) => ((request = r), new Response("ok")));
    await raw(port, "GET /x HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
    await new Promise((r) => setTimeout(r, 50));
    expect(request!.signal.aborted).toBe(false);
  });
});

describe("the Response the client gets", () => {
  it("keeps the status, every Set-Cookie apart, and each header", async () => {
    const port = await serve(() => {
      const headers = new Headers({ "content-type": "application/json", "cache-control": "no-store" });
      headers.append("set-cookie", "a=1; Path=/; HttpOnly");
      headers.append("set-cookie", "b=2; Expires=Thu, 01 Jan 2026 00:00:00 GMT");
      headers.append("www-authenticate", 'Bearer error="invalid_token"');
      headers.append("www-authenticate", 'DPoP algs="ES256"');
      return new Response('{"error":"invalid_token"}', { status: 401, headers });
    });
    const answer = await raw(port, "GET /x HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    const lines = answer.split("\r\n\r\n")[0]!.split("\r\n").map((l) => l.toLowerCase());
    expect(lines.filter((l) => l.startsWith("set-cookie:"))).toEqual(["set-cookie: a=1; path=/; httponly", "set-cookie: b=2; expires=thu, 01 jan 2026 00:00:00 gmt"]);
    expect(lines).toContain('www-authenticate: bearer error="invalid_token", dpop algs="es256"');
    expect(lines).toContain("cache-control: no-store");
    expect(answer).toContain('{"error":"invalid_token"}');
  });

  it("frames the body itself (the Response's Content-Length is not copied, as in Next) and sends none for HEAD", async () => {
    const port = await serve(() => new Response("hello", { headers: { "content-length": "999", "content-type": "text/plain" } }));
    const get = await raw(port, "GET /x HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
    expect(get.toLowerCase()).not.toContain("content-length: 999");
    expect(get).toContain("hello");
    const head = await raw(port, "HEAD /x HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).not.toContain("hello");
  });

  it("streams a body larger than the socket takes at once, whole and in order (backpressure)", async () => {
    const chunks = 256;
    const port = await serve(() => {
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull: (c) => (i < chunks ? c.enqueue(new Uint8Array(64 * 1024).fill(i++ % 251)) : c.close()),
      });
      return new Response(body);
    });
    const received = await new Promise<Buffer>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/x" }, (res) => {
        const parts: Buffer[] = [];
        res.pause();
        // A slow reader: the server's writes fill the socket and must wait for it.
        setTimeout(() => res.resume(), 100);
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => resolve(Buffer.concat(parts)));
      }).on("error", reject);
    });
    expect(received.length).toBe(chunks * 64 * 1024);
    for (let i = 0; i < chunks; i++) expect(received[i * 64 * 1024 + 1], `chunk ${i}`).toBe(i % 251);
  });

  it("streams the body and cancels it when the client goes away", async () => {
    let cancelled = false;
    const port = await serve(() => {
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull: async (c) => {
          await new Promise((r) => setTimeout(r, 10));
          c.enqueue(new TextEncoder().encode(`part ${i++}\n`));
        },
        cancel: () => void (cancelled = true),
      });
      return new Response(body);
    });
    const answer = await raw(port, "GET /x HTTP/1.1\r\nHost: a.test\r\n\r\n", /part 2\n/);
    expect(answer).toContain("part 0\n");
    await expect.poll(() => cancelled).toBe(true);
  });
});

// Next's `compress` (the `compression` package) as the front reproduces it.
describe("compression", () => {
  const big = JSON.stringify({ data: { nodes: Array.from({ length: 100 }, (_, i) => ({ id: i, title: `Course ${i}` })) } });
  const get = (port: number, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port, path: "/x", headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      }).on("error", reject);
    });

  it("picks gzip or deflate from Accept-Encoding as compression does, or none", () => {
    expect(contentCoding(undefined)).toBeNull();
    expect(contentCoding("gzip")).toBe("gzip");
    expect(contentCoding("br, gzip, deflate")).toBe("gzip");
    expect(contentCoding("deflate")).toBe("deflate");
    expect(contentCoding("gzip;q=0, deflate")).toBe("deflate");
    expect(contentCoding("gzip;q=0.5, deflate;q=0.8")).toBe("deflate");
    expect(contentCoding("*")).toBe("gzip");
    expect(contentCoding("*;q=0")).toBeNull();
    expect(contentCoding("br")).toBeNull();
    expect(contentCoding("identity")).toBeNull();
    expect(contentCoding("GZIP;Q=1")).toBe("gzip");
  });

  it("compresses text, JSON and XML, never an event stream, an encoded body or no-transform", () => {
    const h = (init: Record<string, string>) => new Headers(init);
    for (const type of ["application/json; charset=utf-8", "application/graphql-response+json", "text/plain", "text/markdown", "application/problem+json", "application/xml"]) {
      expect(isCompressible(h({ "content-type": type })), type).toBe(true);
    }
    for (const type of ["text/event-stream", "image/png", "application/octet-stream", ""]) expect(isCompressible(h({ "content-type": type })), type).toBe(false);
    expect(isCompressible(h({ "content-type": "application/json", "content-encoding": "gzip" }))).toBe(false);
    expect(isCompressible(h({ "content-type": "application/json", "cache-control": "private, no-transform" }))).toBe(false);
  });

  it("sends a compressible body of at least 1 KB compressed in the client's coding, with Vary: Accept-Encoding", async () => {
    const port = await serve(() => new Response(big, { headers: { "content-type": "application/json", vary: "Origin" } }));
    expect(Buffer.byteLength(big)).toBeGreaterThan(COMPRESSION_THRESHOLD);
    const gz = await get(port, { "accept-encoding": "gzip, deflate" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toBe("Origin, Accept-Encoding");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(big);
    expect(Number(gz.headers["content-length"])).toBe(gz.body.length);
    const df = await get(port, { "accept-encoding": "deflate" });
    expect(df.headers["content-encoding"]).toBe("deflate");
    expect(zlib.inflateSync(df.body).toString()).toBe(big);
    const plain = await get(port, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("Origin, Accept-Encoding");
    expect(plain.body.toString()).toBe(big);
  });

  it("compresses a body streamed in many chunks whole, and one of a single chunk as it came", async () => {
    const parts = Array.from({ length: 40 }, (_, i) => `{"part":${i},"pad":"${"x".repeat(100)}"}\n`);
    const port = await serve((r) => {
      const many = r.headers.get("x-kind") === "many";
      let i = 0;
      const body = new ReadableStream<Uint8Array>({
        pull: (c) => {
          if (!many) return void (c.enqueue(new TextEncoder().encode(parts.join(""))), c.close());
          if (i < parts.length) c.enqueue(new TextEncoder().encode(parts[i++]));
          else c.close();
        },
      });
      return new Response(body, { headers: { "content-type": "application/json" } });
    });
    for (const kind of ["many", "one"]) {
      const gz = await get(port, { "accept-encoding": "gzip", "x-kind": kind });
      expect(gz.headers["content-encoding"], kind).toBe("gzip");
      expect(zlib.gunzipSync(gz.body).toString(), kind).toBe(parts.join(""));
    }
  });

  it("sends a small or incompressible body as it is", async () => {
    const port = await serve((r) =>
      r.url.endsWith("/x") && r.headers.get("x-kind") === "png"
        ? new Response(new Uint8Array(4096), { headers: { "content-type": "image/png" } })
        : new Response('{"ok":true}', { headers: { "content-type": "application/json" } }),
    );
    const small = await get(port, { "accept-encoding": "gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toBe("Accept-Encoding");
    expect(small.body.toString()).toBe('{"ok":true}');
    const png = await get(port, { "accept-encoding": "gzip", "x-kind": "png" });
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.body.length).toBe(4096);
  });

  it("adds the config's headers for the path where the Response did not set them", async () => {
    const port = await serve(
      () => new Response("{}", { headers: { "content-type": "application/json", "referrer-policy": "origin" } }),
      undefined,
      [
        ["X-Frame-Options", "DENY"],
        ["Referrer-Policy", "no-referrer"],
      ],
    );
    const res = await get(port, {});
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["referrer-policy"]).toBe("origin");
  });
});

// The front's plain path (lib/http/plain.ts): the OAuth JSON endpoints get a plain request built
// straight from node:http and their answer is written without a Response. What a handler reads and
// what the client gets must be what the Fetch path above gives.
describe("plain requests and answers", () => {
  /** A server whose /fetch path answers through toRequest/writeResponse and /plain through plainRequest/writePlain. */
  async function serveBoth(handler: (request: PlainRequest) => Promise<PlainResponse>, configHeaders: Array<[string, string]> = []): Promise<number> {
    let port = 0;
    const server = http.createServer((req, res) => {
      const done = req.url!.startsWith("/plain")
        ? handler(plainRequest(req, { hostname: "localhost", port })).then((answer) => writePlain(req, res, answer, { configHeaders }))
        : handler(toRequest(req, { hostname: "localhost", port, signal: signalFromResponse(res) })).then((answer) => writeResponse(req, res, toResponse(answer), { configHeaders }));
      done.catch((err) => res.destroy(err as Error));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
    return port;
  }

  const send = (port: number, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; message: string; headers: [string, string][]; body: Buffer }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, method: body === undefined ? "GET" : "POST", headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => {
          const pairs: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode!, message: res.statusMessage!, headers: pairs, body: Buffer.concat(parts) });
        });
      });
      req.on("error", reject);
      req.end(body);
    });

  it("has the Request's method, URL and headers, and its body", async () => {
    const seen: Record<string, unknown>[] = [];
    const port = await serveBoth(async (r) => {
      const text = new TextDecoder().decode(await readBodyBytesOf(r));
      seen.push({ method: r.method, url: r.url.replace(/^\w+:\/\/localhost:\d+/, ""), headers: [...r.headers], text });
      return { status: 200, headers: {}, body: "" };
    });
    for (const path of ["/fetch?b=2&a=%zz&a=1", "/plain?b=2&a=%zz&a=1"]) {
      await raw(port, `POST ${path} HTTP/1.1\r\nHost: a.test\r\nCookie: a=1\r\nCookie: b=2\r\nX-Middleware-Rewrite: /x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n`);
    }
    expect(seen).toHaveLength(2);
    expect({ ...seen[1], url: (seen[1]!.url as string).replace("/plain", "") }).toEqual({ ...seen[0], url: (seen[0]!.url as string).replace("/fetch", "") });
    expect(seen[1]!.text).toBe("hello world");
  });

  // Either way in (the Request's body stream, the plain request's chunks).
  it.each(["/fetch", "/plain"])("%s: lets lib/http/body.ts refuse a body past its limit while it streams: 413, then the connection closes", async (path) => {
    const port = await serveBoth(async (r) => {
      try {
        await readBodyText(r, 1024);
        return { status: 200, headers: {}, body: "read" };
      } catch (err) {
        if (!(err instanceof BodyTooLargeError)) throw err;
        return { status: 413, headers: { ...REFUSED_BODY_HEADERS }, body: "too large" };
      }
    });
    // Chunked, no Content-Length: only reading tells the size. 64 KiB chunks of a body that never
    // ends, so the answer comes only if reading stops at the limit.
    const answer = await endlessChunkedPost(port, "127.0.0.1", `POST ${path} HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\n\r\n`, 0x10000);
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain("connection: close");
    expect(answer).toContain("too large");
  });

  it("fails the read when the client goes away mid-body, and does not wait forever", async () => {
    let failed: unknown;
    const read = new Promise<void>((resolve) => {
      void serveBoth(async (r) => {
        try {
          await readBodyText(r, 1 << 20);
        } catch (err) {
          failed = err;
        }
        resolve();
        return { status: 200, headers: {}, body: "" };
      }).then((port) => {
        const socket = connect(port, "127.0.0.1");
        socket.write("POST /plain HTTP/1.1\r\nHost: a.test\r\nContent-Length: 100\r\n\r\nabc");
        setTimeout(() => socket.destroy(), 50);
      });
    });
    await read;
    expect(failed).toBeInstanceOf(Error);
  });

  it("fails the read of a client that went away before the handler read its body, instead of waiting forever", async () => {
    let port = 0;
    let outcome: Promise<unknown> | undefined;
    let gone!: () => void;
    const clientGone = new Promise<void>((resolve) => (gone = resolve));
    const server = http.createServer((req) => {
      const request = plainRequest(req, { hostname: "localhost", port });
      // The handler reads the body only after the client has gone (as one that looks the school up first).
      outcome = clientGone.then(() => new Promise((r) => setTimeout(r, 50))).then(() => readBodyText(request, 1 << 20).then(() => "read", (err: Error) => err.name));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
    const socket = connect(port, "127.0.0.1");
    socket.write("POST /plain HTTP/1.1\r\nHost: a.test\r\nContent-Length: 100\r\n\r\nabc");
    await expect.poll(() => outcome !== undefined).toBe(true);
    socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    gone();
    const result = await Promise.race([outcome, new Promise((r) => setTimeout(() => r("still waiting"), 2000))]);
    expect(result).not.toBe("still waiting");
    expect(result).not.toBe("read");
  });

  // Every difference between the two ways out: status, header names and values in order (but the
  // framing: a plain answer is sent whole with its length), compression and the config's headers.
  it("reaches the client as its Response does through writeResponse (fast-check)", async () => {
    const small = '{"active":false}';
    const large = JSON.stringify({ access_token: "a".repeat(40), id_token: "e".repeat(1200), scope: "openid profile" });
    const answer = fc.record({
      status: fc.constantFrom(200, 201, 400, 401, 403, 413, 503),
      body: fc.constantFrom("", small, large, "é".repeat(700)),
      headers: fc.dictionary(
        fc.constantFrom("content-type", "cache-control", "pragma", "vary", "www-authenticate", "retry-after", "connection", "access-control-allow-origin", "X-Upper", "content-length"),
        fc.constantFrom("application/json; charset=utf-8", "no-store", "private, no-transform", "no-cache", "Origin", "close", "*", 'Bearer realm="schoolhouse"', "1", "text/event-stream", "999"),
      ),
    });
    const request = fc.record({
      encoding: fc.constantFrom(undefined, "gzip", "deflate", "gzip;q=0, deflate", "br", "*"),
      config: fc.constantFrom<Array<[string, string]>>([], [["X-Frame-Options", "DENY"], ["Cache-Control", "public"]]),
    });
    let current: { answer: PlainResponse } = { answer: { status: 200, headers: {}, body: "" } };
    const ports = new Map<string, number>();
    const portFor = async (config: Array<[string, string]>) => {
      const key = JSON.stringify(config);
      if (!ports.has(key)) ports.set(key, await serveBoth(async () => current.answer, config));
      return ports.get(key)!;
    };
    const framing = new Set(["content-length", "transfer-encoding", "date", "connection", "keep-alive"]);
    const inflate = (r: { headers: [string, string][]; body: Buffer }) => {
      const coding = r.headers.find(([n]) => n === "content-encoding")?.[1];
      return (coding === "gzip" ? zlib.gunzipSync(r.body) : coding === "deflate" ? zlib.inflateSync(r.body) : r.body).toString();
    };
    await fc.assert(
      fc.asyncProperty(answer, request, async (a, r) => {
        current = { answer: a };
        const port = await portFor(r.config);
        const headers: Record<string, string> = r.encoding === undefined ? {} : { "accept-encoding": r.encoding };
        const viaFetch = await send(port, "/fetch", headers, "token=x");
        const viaPlain = await send(port, "/plain", headers, "token=x");
        expect(viaPlain.status).toBe(viaFetch.status);
        expect(viaPlain.message).toBe(viaFetch.message);
        expect(viaPlain.headers.filter(([n]) => !framing.has(n))).toEqual(viaFetch.headers.filter(([n]) => !framing.has(n)));
        expect(viaPlain.headers.some(([n, v]) => n === "connection" && v === "close")).toBe(viaFetch.headers.some(([n, v]) => n === "connection" && v === "close"));
        expect(inflate(viaPlain)).toBe(inflate(viaFetch));
        expect(inflate(viaPlain)).toBe(a.body);
        // Sent whole: with its length, never chunked.
        expect(viaPlain.headers.find(([n]) => n === "content-length")?.[1]).toBe(String(viaPlain.body.length));
      }),
      { seed: 20261127, numRuns: 150 },
    );
  });
});

/** lib/http/body.ts's reader with no limit that matters, for the tests that compare what a handler reads. */
const readBodyBytesOf = (r: PlainRequest) => readBodyText(r, 1 << 20).then((t) => new TextEncoder().encode(t));
