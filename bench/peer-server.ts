// The bench's peer: node-oidc-provider 9 (Koa, one process) configured as a team would pick it
// instead of ours (docs/benchmarks.md, "The peer"): PKCE S256 required, rotating refresh tokens,
// opaque access tokens, introspection on, one public client, a fixed account, and its memory adapter
// or, with PEER_DATABASE_URL, the small Postgres adapter of bench/peer-pg-adapter.ts. The
// authorization's interaction (login and consent) is finished at once for the fixed account, so
// the bench drives the code flow over HTTP (bench/peer.ts). GET /bare is a bare node:http route in
// the same process, the peer of our bare route.
//
// Started by the bench as `node --import tsx bench/peer-server.ts` with PEER_PORT and PEER_ISSUER;
// prints "peer ready" once it listens.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import pg from "pg";
import { PEER_ACCOUNT, PEER_BARE_PATH, PEER_CLIENT_ID, PEER_READY_LINE, PEER_REDIRECT_URI } from "./peer-config";
import { pgAdapter, PEER_SCHEMA } from "./peer-pg-adapter";

const port = Number(process.env.PEER_PORT);
const issuer = process.env.PEER_ISSUER ?? `http://127.0.0.1:${port}`;
const databaseUrl = process.env.PEER_DATABASE_URL || undefined;

let adapter: ReturnType<typeof pgAdapter> | undefined;
if (databaseUrl) {
  // As many connections as our server's pool (lib/db: one pg.Pool of 10 per process).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, application_name: "bench-peer" });
  for (const sql of PEER_SCHEMA) await pool.query(sql);
  adapter = pgAdapter(pool);
}

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: "jwk" }), kid: "bench-peer", alg: "RS256", use: "sig" };

// The package ships no types: the part used here, typed here.
interface PeerProvider {
  Grant: new (o: { accountId: string; clientId: string }) => { addOIDCScope(scope: string): void; save(): Promise<string> };
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ params: Record<string, unknown> }>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: unknown, options: { mergeWithLastSubmission: boolean }): Promise<void>;
  on(event: "server_error", listener: (ctx: unknown, err: Error) => void): void;
}
const moduleName = "oidc-provider";
const { default: Provider } = (await import(moduleName)) as { default: new (issuer: string, configuration: unknown) => PeerProvider };

const provider = new Provider(issuer, {
  ...(adapter ? { adapter } : {}),
  clients: [
    {
      client_id: PEER_CLIENT_ID,
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      redirect_uris: [PEER_REDIRECT_URI],
    },
  ],
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString("base64url")] },
  scopes: ["openid", "offline_access", "email", "profile"],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  findAccount: (_ctx: unknown, sub: string) => ({
    accountId: sub,
    claims: () => ({ sub, email: "member@bench.peer.test", email_verified: true, name: "Bench Member" }),
  }),
  pkce: { required: () => true },
  rotateRefreshToken: true,
  features: {
    devInteractions: { enabled: false },
    introspection: { enabled: true },
    revocation: { enabled: true },
  },
  interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
});
// Koa's own error logging of expected OAuth errors (a replayed refresh token) would only be noise.
provider.on("server_error", (_ctx: unknown, err: Error) => console.error(`peer server_error: ${err.message}`));

const handle = provider.callback();
const server = createServer((req, res) => {
  if (req.url === PEER_BARE_PATH) {
    res.writeHead(200, { "content-type": "text/plain", "cache-control": "no-store" }).end("ok\n");
    return;
  }
  if (req.url?.startsWith("/interaction/")) {
    // Login and consent at once: the fixed account grants every scope the client asked for.
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: PEER_ACCOUNT, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: PEER_ACCOUNT }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`interaction failed: ${err.message}`);
    });
    return;
  }
  handle(req, res);
});
server.listen(port, "127.0.0.1", () => console.log(PEER_READY_LINE));
process.on("SIGINT", () => server.close(() => process.exit(0)));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
