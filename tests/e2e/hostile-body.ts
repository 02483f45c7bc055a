// A hostile client's oversized POST through a raw socket, and every endpoint of the app that reads a
// request body (issue 29, item 13): tests/e2e/body-limits.spec.ts, tests/e2e/fuzz-edge.spec.ts.
import { connect } from "node:net";
import { baseURL } from "../../playwright.config";

const { hostname, port } = new URL(baseURL);
const KEY = "sh_demofull_demo-admin-key-all-permissions-dev-only";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "content-type": "application/json" };

/** Every endpoint that reads a body, with what it needs to reach its body reader, and its limit. */
export const ENDPOINTS: { path: string; headers: Record<string, string>; limit: number }[] = [
  { path: "/admin/graphql", headers: { ...JSON_TYPE, "x-service-api-key": KEY }, limit: 1024 * 1024 },
  { path: "/mcp", headers: { ...JSON_TYPE, accept: "application/json, text/event-stream", authorization: `Bearer ${KEY}` }, limit: 1024 * 1024 },
  { path: "/api/oauth/token", headers: FORM, limit: 16 * 1024 },
  { path: "/api/oauth/revoke", headers: FORM, limit: 16 * 1024 },
  { path: "/api/oauth/introspect", headers: FORM, limit: 16 * 1024 },
  { path: "/api/oauth/register", headers: JSON_TYPE, limit: 16 * 1024 },
  { path: "/oauth/authorize", headers: FORM, limit: 16 * 1024 },
  { path: "/api/auth/callback/credentials", headers: FORM, limit: 16 * 1024 },
  { path: "/api/account/set-password", headers: FORM, limit: 8 * 1024 },
];

export interface Outcome {
  status: number;
  /** The server closed the connection while the client was still sending. */
  closedByServer: boolean;
  ms: number;
}

/**
 * Sends the head with `declared` (a Content-Length) or chunked, then body bytes up to `send` (never
 * the end of the body), and waits for the answer and the server's close (at most 10 s).
 */
export function hostilePost(path: string, headers: Record<string, string>, o: { declared?: number; send: number }): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const started = Date.now();
    let received = "";
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), closedByServer, ms: Date.now() - started });
    };
    const timer = setTimeout(() => finish(false), 10_000);
    socket.on("data", (d) => (received += d.toString("latin1")));
    socket.on("end", () => finish(true));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    const head = Object.entries({ host: `${hostname}:${port}`, ...headers, ...(o.declared === undefined ? { "transfer-encoding": "chunked" } : { "content-length": String(o.declared) }) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    const piece = Buffer.alloc(16 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (!done && sent < o.send) {
        sent += piece.length;
        const data = o.declared === undefined ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
        if (!socket.write(data)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

