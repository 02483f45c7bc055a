// A small relying-party app on Auth.js (@auth/core) with its generic OpenID Connect provider, as a
// community tool would add "Sign in with <school>": an operator registers it with `npm run
// oauth-client` (its Auth.js callback as redirect URI), the app discovers the school from its
// issuer, runs code + PKCE + state + nonce, the member signs in at the demo school in real
// Chromium, and the app's session comes from the ID token. The school runs as its own production
// server on an embedded database of this test's; the app runs in this process on 127.0.0.1.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Auth, type AuthConfig } from "@auth/core";
import { expect, test } from "@playwright/test";
import { signInAndAllow } from "./oauth-helpers";
import { startNextServer, type NextServer } from "./next-server";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
// A free port: other helpers' suites use the ports next to E2E_PORT.
let PORT: number;
let dir: string;
let school: NextServer | undefined;
let clientId: string;

const env = () => ({ ...process.env, NODE_ENV: "production" as const, PGLITE_DATA_DIR: path.join(dir, "pglite"), DATABASE_URL: "", REDIS_URL: "", PLATFORM_DOMAIN: "localhost" });
const cli = (script: string, args: string[]) => run(path.join(ROOT, "node_modules/.bin/tsx"), [script, ...args], { cwd: ROOT, env: { ...env(), NODE_ENV: "development" } });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = await mkdtemp(path.join(tmpdir(), "oidc-authjs-"));
  PORT = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  await cli("scripts/db-seed.ts", []);
  const created = await cli("scripts/oauth-client.ts", [
    "create", "--school", "demo", "--name", "Community Forum", "--redirect-uri", "http://127.0.0.1/auth/callback/school", "--scope", "openid profile email", "--public",
  ]);
  clientId = /client_id: (\S+)/.exec(created.stdout)![1]!;
  school = startNextServer(PORT, env());
  await school.healthy();
});
test.afterAll(async () => {
  await school?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const DEMO_SCHOOL = "5c400000-0000-4000-8000-000100000001";

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  return new Request(`${origin}${req.url}`, { method: req.method, headers, body });
}

function startRelyingParty(issuer: string): Promise<{ server: Server; origin: string }> {
  return new Promise((resolve) => {
    let config: AuthConfig;
    const server = createServer(async (req, res) => {
      if (!req.url!.startsWith("/auth/")) {
        res.writeHead(200, { "content-type": "text/plain" }).end("relying party home");
        return;
      }
      const origin = `http://${req.headers.host}`;
      const response = await Auth(await toRequest(req, origin), config);
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((v, k) => {
        if (k !== "set-cookie") headers[k] = v;
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) headers["set-cookie"] = cookies;
      res.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()));
    });
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port;
      config = {
        secret: "relying-party-test-secret-0123456789abcdef",
        trustHost: true,
        basePath: "/auth",
        session: { strategy: "jwt" },
        providers: [
          {
            id: "school",
            name: "Schoolhouse Demo Academy",
            type: "oidc",
            issuer,
            clientId,
            client: { token_endpoint_auth_method: "none" },
            checks: ["pkce", "state", "nonce"],
            authorization: { params: { scope: "openid profile email", school_id: DEMO_SCHOOL } },
          },
        ],
      };
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

test("an Auth.js app signs a member in with the demo school over OpenID Connect", async ({ browser }) => {
  const rp = await startRelyingParty(`http://localhost:${PORT}`);
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${rp.origin}/auth/signin`);
    await page.getByRole("button", { name: "Sign in with Schoolhouse Demo Academy" }).click();

    await signInAndAllow(page, "student@schoolhouse.test");

    // Back at the relying party, signed in from the ID token.
    await page.waitForURL(`${rp.origin}/`);
    await page.goto(`${rp.origin}/auth/session`);
    const session = JSON.parse((await page.locator("body").textContent())!) as { user?: { email?: string; name?: string } };
    expect(session.user).toMatchObject({ email: "student@schoolhouse.test", name: expect.any(String) });
    await context.close();
  } finally {
    await new Promise((r) => rp.server.close(r));
  }
});
