// The peer in the bench (issue 30): node-oidc-provider started in its own process
// (bench/peer-server.ts) on the same machine, its refresh, introspection and a bare node:http route
// measured alternating with ours in the same run, reported as ours/peer ratios
// (docs/benchmarks.md, "The peer").
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import type { AutocannonRequest, LoadSpec } from "./load";
import { PEER_BARE_PATH, PEER_CLIENT_ID, PEER_READY_LINE, PEER_REDIRECT_URI, PEER_SCOPE } from "./peer-config";

export interface PeerServer {
  origin: string;
  pid: number;
  adapter: "memory" | "postgres";
  stop(): Promise<void>;
}

/** Starts bench/peer-server.ts on `port`; with a database URL, on the Postgres adapter. */
export async function startPeer(options: { port: number; databaseUrl?: string }): Promise<PeerServer> {
  const origin = `http://127.0.0.1:${options.port}`;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join("bench", "peer-server.ts")], {
    env: {
      ...process.env,
      // Production, as our server runs; the peer's own process, no flags of ours.
      NODE_ENV: "production",
      PEER_PORT: String(options.port),
      PEER_ISSUER: origin,
      PEER_DATABASE_URL: options.databaseUrl ?? "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the peer did not start within 60 s:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes(PEER_READY_LINE)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (output += d));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the peer exited (code ${code}) before it was ready:\n${output}`));
    });
  });
  return {
    origin,
    pid: child.pid!,
    adapter: options.databaseUrl ? "postgres" : "memory",
    stop: async () => {
      if (child.exitCode !== null) return;
      const done = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await done;
      clearTimeout(timer);
    },
  };
}

/** A cookie jar that sends every cookie it was given (the peer's are all path-scoped to its own flow). */
class Jar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface PeerTokens {
  access_token: string;
  refresh_token: string;
  id_token?: string;
}

/**
 * One authorization-code flow with PKCE S256, driven over HTTP as a browser and the client would:
 * /auth → the interaction (finished at once by the peer for its fixed account) → /auth/<uid> →
 * the redirect with the code → the token endpoint. Returns the first tokens of a refresh chain.
 */
export async function authorizationCodeFlow(origin: string): Promise<PeerTokens> {
  const jar = new Jar();
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const state = randomBytes(8).toString("hex");
  const auth = new URL("/auth", origin);
  auth.search = new URLSearchParams({
    client_id: PEER_CLIENT_ID,
    response_type: "code",
    scope: PEER_SCOPE,
    redirect_uri: PEER_REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    prompt: "consent",
    state,
  }).toString();
  let next = auth.toString();
  let code: string | null = null;
  for (let hop = 0; hop < 6 && !code; hop++) {
    const res = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() }, signal: AbortSignal.timeout(15_000) });
    jar.take(res);
    const location = res.headers.get("location");
    await res.arrayBuffer();
    if (res.status < 300 || res.status >= 400 || !location) throw new Error(`peer authorization: ${res.status} at ${new URL(next).pathname}`);
    const url = new URL(location, next);
    if (url.origin + url.pathname === PEER_REDIRECT_URI) {
      if (url.searchParams.get("state") !== state) throw new Error("peer authorization: state mismatch");
      code = url.searchParams.get("code");
      if (!code) throw new Error(`peer authorization refused: ${url.searchParams.get("error")} ${url.searchParams.get("error_description") ?? ""}`);
    }
    next = url.toString();
  }
  if (!code) throw new Error("peer authorization: no code after the redirects");
  const res = await peerToken(origin, { grant_type: "authorization_code", code, redirect_uri: PEER_REDIRECT_URI, code_verifier: verifier, client_id: PEER_CLIENT_ID });
  if (res.status !== 200 || !res.body.refresh_token) throw new Error(`peer code exchange: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as PeerTokens;
}

async function peerToken(origin: string, form: Record<string, string>): Promise<{ status: number; body: Partial<PeerTokens> & { error?: string } }> {
  const res = await fetch(`${origin}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Partial<PeerTokens> & { error?: string } };
}

/** `count` chains, a few flows at a time. */
export async function peerChains(origin: string, count: number): Promise<PeerTokens[]> {
  const out: PeerTokens[] = [];
  const parallel = 4;
  for (let i = 0; i < count; i += parallel) out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - i) }, () => authorizationCodeFlow(origin)))));
  return out;
}

/**
 * The peer's setup is what it claims: a refresh answers 200 with a new refresh token and an ID
 * token, the old refresh token is then refused (rotation), and introspection of the new access
 * token says active. Uses a chain of its own (a refused replay revokes its grant).
 */
export async function checkPeerSetup(origin: string): Promise<{ chainsRotate: boolean; idTokenOnRefresh: boolean; introspectionActive: boolean; problems: string[] }> {
  const problems: string[] = [];
  const first = await authorizationCodeFlow(origin);
  const refreshed = await peerToken(origin, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: PEER_CLIENT_ID });
  const rotatedTo = refreshed.body.refresh_token;
  if (refreshed.status !== 200) problems.push(`refresh answered ${refreshed.status} ${JSON.stringify(refreshed.body)}`);
  const idTokenOnRefresh = typeof refreshed.body.id_token === "string";
  if (!idTokenOnRefresh) problems.push("the refresh answered no ID token");
  const replay = await peerToken(origin, { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: PEER_CLIENT_ID });
  const chainsRotate = refreshed.status === 200 && !!rotatedTo && rotatedTo !== first.refresh_token && replay.status === 400 && replay.body.error === "invalid_grant";
  if (!chainsRotate) problems.push(`the old refresh token was not refused: ${replay.status} ${JSON.stringify(replay.body)}`);
  const fresh = await authorizationCodeFlow(origin);
  const introspection = await fetch(`${origin}${PEER_INTROSPECT_PATH}`, { method: "POST", headers: formHeaders(), body: introspectBody(fresh.access_token) });
  const introspectionActive = introspectionOk(introspection.status, await introspection.text());
  if (!introspectionActive) problems.push(`introspection of a fresh access token: ${introspection.status}`);
  return { chainsRotate, idTokenOnRefresh, introspectionActive, problems };
}

export const PEER_INTROSPECT_PATH = "/token/introspection";
const formHeaders = () => ({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
const introspectBody = (token: string) => new URLSearchParams({ token, client_id: PEER_CLIENT_ID }).toString();
const parse = (body: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};
const introspectionOk = (status: number, body: string) => status === 200 && parse(body)?.active === true;

/**
 * The peer's refresh: each in-flight request takes a chain's current refresh token and puts the
 * new one back; a response counts only with a new refresh token (never the one sent) and an ID token.
 */
export function peerRefreshSpec(chains: PeerTokens[]): LoadSpec {
  const pool = chains.map((c) => c.refresh_token);
  const request: AutocannonRequest = {
    method: "POST",
    path: "/token",
    setupRequest: (req, context) => {
      const token = pool.shift() ?? "pool-exhausted";
      context.token = token;
      return { ...req, headers: formHeaders(), body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: PEER_CLIENT_ID }).toString() };
    },
    onResponse: (status, body, context) => {
      const rt = status === 200 ? parse(body)?.refresh_token : undefined;
      if (typeof rt === "string" && rt !== context.token) pool.push(rt);
    },
  };
  return {
    request,
    check: (status, body) => {
      const b = parse(body);
      return status === 200 && typeof b?.refresh_token === "string" && typeof b.id_token === "string" && typeof b.access_token === "string";
    },
  };
}

export function peerIntrospectSpec(accessToken: string): LoadSpec {
  const body = introspectBody(accessToken);
  return { request: { method: "POST", path: PEER_INTROSPECT_PATH, setupRequest: (req) => ({ ...req, headers: formHeaders(), body }) }, check: introspectionOk };
}

export const peerBareSpec = (): LoadSpec => ({ request: { method: "GET", path: PEER_BARE_PATH }, check: (status, body) => status === 200 && body === "ok\n" });
