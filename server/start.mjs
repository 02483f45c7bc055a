// The production entry (`npm start`, `npm run serve`): Next's documented custom server, with the
// OAuth front (./front.mjs) in front of Next's request handler in the same process and on the
// same port. It takes `next start`'s options: -p/--port (default $PORT, else 3000),
// -H/--hostname (default: every interface), --keepAliveTimeout <ms>; and shuts down as `next start`
// does: SIGTERM/SIGINT stop accepting connections, let open requests finish, close Next, exit.
// Vercel runs no custom server: there Next answers every path (docs/decisions.md, "The OAuth front").
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { createFront } from "./front.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");

const { values: args } = parseArgs({
  options: {
    port: { type: "string", short: "p" },
    hostname: { type: "string", short: "H" },
    keepAliveTimeout: { type: "string" },
  },
});
const port = Number(args.port ?? process.env.PORT ?? 3000);
const hostname = args.hostname;
const keepAliveTimeout = args.keepAliveTimeout === undefined ? undefined : Number(args.keepAliveTimeout);
if (!Number.isInteger(port) || port < 0 || port > 65535) fatal(`invalid port: ${args.port ?? process.env.PORT}`);
if (keepAliveTimeout !== undefined && !(keepAliveTimeout >= 0)) fatal(`invalid --keepAliveTimeout: ${args.keepAliveTimeout}`);

// As `next start`: production unless NODE_ENV is set (a spec runs the build with NODE_ENV=test).
/** @type {Record<string, string | undefined>} */ (process.env).NODE_ENV ||= "production";

// Listening first, as `next start` does: with -p 0 the port is known only then, and Next builds
// every route's request.url with it. Requests that come before Next is ready wait for it.
/** @type {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void} */
let listener = (req, res) => void ready.then(() => listener(req, res));
/** @type {() => void} */
let becameReady = () => {};
const ready = new Promise((resolve) => (becameReady = () => resolve(undefined)));
const server = http.createServer((req, res) => listener(req, res));
if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
server.on("error", (err) => fatal(`failed to start the server: ${err.message}`));
await new Promise((resolve) => server.listen(port, hostname, () => resolve(undefined)));
const actualPort = /** @type {import("node:net").AddressInfo} */ (server.address()).port;

const { default: next } = await import("next");
// prepare() runs instrumentation.ts's register() (start-up: env check, migrate, seed, worker) once.
const app = next({ dev: false, dir: ROOT, hostname, port: actualPort });
await app.prepare();
const nextHandler = app.getRequestHandler();
// Upgrades (a rewrite to a WebSocket origin) go to Next, as under `next start`.
const upgradeHandler = app.getUpgradeHandler();
server.on("upgrade", (req, socket, head) => {
  upgradeHandler(req, socket, head).catch((err) => {
    socket.destroy();
    console.error(`Failed to handle request for ${req.url}`, err);
  });
});

listener = createFront({
  distDir: path.join(ROOT, ".next"),
  hostname,
  port: actualPort,
  next: (req, res) => {
    // `next start`'s answer when Next's own handler throws.
    nextHandler(req, res).catch((err) => {
      console.error(`Failed to handle request for ${req.url}`, err);
      if (res.headersSent) res.destroy();
      else {
        res.statusCode = 500;
        res.end("Internal Server Error");
      }
    });
  },
});
becameReady();
console.log(`Ready on http://${hostname ?? "localhost"}:${actualPort}`);

let closing = false;
/** @param {"SIGINT" | "SIGTERM"} signal */
function shutdown(signal) {
  if (closing) return;
  closing = true;
  // Finish the open requests first: they may still need Next (an after() it runs, a lazy module).
  server.close(async (err) => {
    if (err) console.error(err);
    await app.close().catch(console.error);
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
  // Idle keep-alive connections would hold close() open until the client drops them.
  server.closeIdleConnections();
}
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));

/** @param {string} message @returns {never} */
function fatal(message) {
  console.error(`schoolhouse: ${message}`);
  process.exit(1);
}
