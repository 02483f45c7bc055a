// The self-hosted recipe's front proxy (deploy/nginx.conf, docs/deploy.md) in front of `next start`
// (issue 29, items 13 and 18): what the app cannot answer itself, the recipe does. TRACE and
// `OPTIONS *` fail inside Next's request adapter before any code of the app runs (a bare 500);
// a slow or oversized body to a path proxy.ts matches is read by Next to its end before any answer.
// nginx answers the first two itself and bounds bodies. Skipped, saying so, where nginx is absent.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"].find((p) => existsSync(p));
const upstreamPort = Number(new URL(baseURL).port);
let nginx: ChildProcess | undefined;
let port = 0;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: p } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return p;
}

/** Writes `head` (and `body` bytes, `chunks` chunked pieces of 16 KiB) and resolves with the status line's code and whether the server closed. */
function raw(head: string, o: { body?: number; chunks?: number } = {}): Promise<{ status: number; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1] ?? 0), closed });
    };
    const timer = setTimeout(() => finish(false), 10_000);
    socket.on("data", (d) => {
      got += d.toString("latin1");
      if (!o.chunks && /\r\n\r\n/.test(got)) finish(false);
    });
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    socket.write(head);
    if (o.body) socket.write(Buffer.alloc(o.body, 0x61));
    const piece = Buffer.concat([Buffer.from("4000\r\n"), Buffer.alloc(0x4000, 0x61), Buffer.from("\r\n")]);
    let sent = 0;
    const pump = () => {
      while (!done && sent < (o.chunks ?? 0)) {
        sent++;
        if (!socket.write(piece)) return void socket.once("drain", pump);
      }
    };
    pump();
  });
}

test.describe("the self-hosted recipe's nginx in front of next start", () => {
  test.skip(!NGINX && !process.env.CI, "nginx is not installed (apt-get install nginx-light): the recipe's front proxy is not tested here");

  test.beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "schoolhouse-nginx-"));
    for (const sub of ["body", "proxy"]) mkdirSync(path.join(dir, sub));
    // nginx started as root runs its workers as nobody: they write buffered bodies here.
    for (const d of [dir, path.join(dir, "body"), path.join(dir, "proxy")]) chmodSync(d, 0o777);
    port = await freePort();
    const recipe = readFileSync(path.resolve(import.meta.dirname, "../../deploy/nginx.conf"), "utf8")
      .replace("server 127.0.0.1:3000;", `server 127.0.0.1:${upstreamPort};`)
      .replace("listen 80;", `listen 127.0.0.1:${port};`);
    expect(recipe).toContain(`127.0.0.1:${port}`);
    writeFileSync(path.join(dir, "schoolhouse.conf"), recipe);
    writeFileSync(
      path.join(dir, "nginx.conf"),
      `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events {}
http { access_log off; client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/proxy; uwsgi_temp_path ${dir}/proxy; scgi_temp_path ${dir}/proxy;
  include ${dir}/schoolhouse.conf; }
`,
    );
    nginx = spawn(NGINX!, ["-p", dir, "-c", path.join(dir, "nginx.conf")], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`nginx on ${port} did not come up (see ${dir}/error.log)`);
  });

  test.afterAll(() => {
    nginx?.kill("SIGQUIT");
  });

  test("proxies the app", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);
  });

  test("TRACE is 405 and `OPTIONS *` is 400 (Next alone answers both 500)", async () => {
    expect((await raw("TRACE / HTTP/1.1\r\nhost: localhost\r\n\r\n")).status).toBe(405);
    expect((await raw("TRACE /api/health HTTP/1.1\r\nhost: localhost\r\n\r\n")).status).toBe(405);
    expect((await raw("OPTIONS * HTTP/1.1\r\nhost: localhost\r\n\r\n")).status).toBe(400);
  });

  test("a body declared past 1 MiB is refused at once, to any path", async () => {
    for (const p of ["/admin/graphql", "/courses", "/api/oauth/token"]) {
      const r = await raw(`POST ${p} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 30000000\r\n\r\n`, { body: 64 * 1024 });
      expect(r.status, p).toBe(413);
    }
  });

  test("a streamed body is cut at 1 MiB, to a page too", async () => {
    const r = await raw("POST /courses HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\n\r\n", { chunks: 4096 });
    expect(r.status).toBe(413);
    expect(r.closed).toBe(true);
  });
});
