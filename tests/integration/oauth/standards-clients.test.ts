import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer, globalAgent } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { now } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { resetEnvCache } from "@/lib/env";
import { createOAuthClient } from "@/lib/oauth/client-admin/create-client";
import { rotateClientSecret } from "@/lib/oauth/client-admin/rotate-client-secret";
import { appForSuite } from "../../helpers/app-for-suite";
import { RecordingAuthProvider } from "../../helpers/mcp-auth-provider";
import { browseAuthorization, signIn } from "./helpers";
import { TEST_ACTOR } from "../../helpers/audit-actor";

// Real clients against the real route handlers over HTTP, on the bare host (127.0.0.1:<port>),
// whose issuer is exactly http://127.0.0.1:<port>.
const app = appForSuite();
let cookie: string;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

beforeAll(async () => {
  cookie = await signIn(app, "multi@schoolhouse.test");
});

const browse = (authorizationUrl: URL | string, schoolId: string) => browseAuthorization(app, cookie, authorizationUrl, schoolId);

describe("oauth4webapi (strict standards client)", () => {
  it("discovery, authorize with PKCE, token, userinfo, refresh, replay, revoke, introspect", async () => {
    const issuer = new URL(app.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
    expect(as.issuer).toBe(app.url);
    const client: oauth.Client = { client_id: "demo-public-app" };
    const clientAuth = oauth.None();
    const redirectUri = "http://127.0.0.1:53682/callback";
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();

    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid profile email offline_access",
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    }).toString();
    const callback = await browse(authorizationUrl, DEMO_IDS.acmeSchool);

    // Checks state and the RFC 9207 iss parameter against the discovered issuer.
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const tokenResponse = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, insecure);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBe(7200);
    expect(tokens.school_id).toBe(DEMO_IDS.acmeSchool);
    expect(tokens.school_subdomain).toBe("acme-training");

    const claims = await oauth.processUserInfoResponse(as, client, DEMO_IDS.users.multiRole, await oauth.userInfoRequest(as, client, tokens.access_token, insecure));
    expect(claims).toMatchObject({ sub: DEMO_IDS.users.multiRole, name: "Rin Takeda", email: "multi@schoolhouse.test", org_id: DEMO_IDS.acmeSchool, roles: ["student"] });

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    // Replaying the old refresh token is refused.
    await expect(
      oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure)),
    ).rejects.toMatchObject({ error: "invalid_grant" });

    const active = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, refreshed.access_token, insecure));
    expect(active).toMatchObject({ active: true, client_id: "demo-public-app", token_type: "Bearer", iss: app.url, sub: DEMO_IDS.users.multiRole });

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure));
    const inactive = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, refreshed.access_token, insecure));
    expect(inactive).toEqual({ active: false });
  });
});

describe("oauth4webapi with a client issued by npm run oauth-client (client_secret_basic, issue 12)", () => {
  it("authenticates with the issued secret by Basic and by post, and with the previous secret during a rotation's overlap", async () => {
    const issuer = new URL(app.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" }));
    expect(as.token_endpoint_auth_methods_supported).toContain("client_secret_basic");
    const created = await createOAuthClient({ actor: TEST_ACTOR, now: new Date(),
      db: db(), school: "acme-training", name: "Acme Reports", redirectUris: ["http://127.0.0.1/callback"], scope: "openid profile offline_access", confidential: true,
    });
    const client: oauth.Client = { client_id: created.client.clientId };
    const redirectUri = "http://127.0.0.1:53683/callback";
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      client_id: client.client_id, redirect_uri: redirectUri, response_type: "code", scope: "openid offline_access", state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    }).toString();
    const params = oauth.validateAuthResponse(as, client, await browse(authorizationUrl, DEMO_IDS.acmeSchool), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as, client, await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(created.secret!), params, redirectUri, verifier, insecure),
    );

    const rotated = await rotateClientSecret({ actor: TEST_ACTOR, db: db(), clientId: client.client_id, now: now() });
    const introspect = async (clientAuth: oauth.ClientAuth) =>
      oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, clientAuth, tokens.access_token, insecure));
    for (const clientAuth of [oauth.ClientSecretBasic(created.secret!), oauth.ClientSecretBasic(rotated.secret), oauth.ClientSecretPost(rotated.secret)]) {
      expect(await introspect(clientAuth)).toMatchObject({ active: true, client_id: client.client_id });
    }
    await expect(introspect(oauth.ClientSecretBasic("ocs_not-the-secret"))).rejects.toMatchObject({ error: "invalid_client" });
    const refreshed = await oauth.processRefreshTokenResponse(
      as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretBasic(rotated.secret), tokens.refresh_token!, insecure),
    );
    expect(refreshed.access_token).toBeTruthy();
  });
});

describe("MCP TypeScript SDK auth()", () => {
  let resourceServer: Server;
  let metadataServer: Server;
  let resourceUrl: string;
  let metadataUrl: string;

  beforeAll(async () => {
    // The MCP server (a protected resource, RFC 9728) that names this authorization server.
    resourceServer = createHttpServer((req, res) => {
      if (req.url?.startsWith("/.well-known/oauth-protected-resource")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ resource: resourceUrl, authorization_servers: [app.url], scopes_supported: ["openid", "profile", "courses:read"] }));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => resourceServer.listen(0, "127.0.0.1", r));
    resourceUrl = `http://127.0.0.1:${(resourceServer.address() as AddressInfo).port}/mcp`;

    // The client's metadata document, on https with a throwaway certificate for 127.0.0.1.
    const dir = mkdtempSync(path.join(tmpdir(), "cimd-tls-"));
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"),
    ], { stdio: "ignore" });
    const cert = readFileSync(path.join(dir, "cert.pem"));
    metadataServer = createHttpsServer({ key: readFileSync(path.join(dir, "key.pem")), cert }, (req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ client_id: metadataUrl, client_name: "Test MCP Agent", redirect_uris: ["http://127.0.0.1/callback"] }));
    });
    await new Promise<void>((r) => metadataServer.listen(0, "127.0.0.1", r));
    metadataUrl = `https://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/mcp-client.json`;
    // Trust the throwaway certificate in this test process only.
    globalAgent.options.ca = cert;
    process.env.OAUTH_CIMD_ALLOWED_HOSTS = "127.0.0.1";
    process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS = "1";
    resetEnvCache();
  });

  afterAll(async () => {
    process.env.OAUTH_CIMD_ALLOWED_HOSTS = "none"; // the suites' setting (vitest.config.ts): unset means "*"
    delete process.env.OAUTH_CIMD_ALLOW_LOOPBACK_FOR_TESTS;
    resetEnvCache();
    delete globalAgent.options.ca;
    resourceServer.closeAllConnections();
    metadataServer.closeAllConnections();
    await new Promise((r) => resourceServer.close(r));
    await new Promise((r) => metadataServer.close(r));
  });

  class TestProvider extends RecordingAuthProvider {
    constructor(info: OAuthClientInformationMixed | undefined, clientMetadataUrl?: string) {
      super("http://127.0.0.1:61000/callback", info, clientMetadataUrl);
    }
  }

  async function run(provider: TestProvider) {
    expect(await auth(provider, { serverUrl: resourceUrl })).toBe("REDIRECT");
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get("resource")).toBe(resourceUrl);
    const callback = await browse(authorizationUrl, DEMO_IDS.school);
    expect(callback.searchParams.get("iss")).toBe(app.url);
    const code = callback.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl: resourceUrl, authorizationCode: code })).toBe("AUTHORIZED");
    const tokens = provider.saved!;
    expect(tokens.access_token).toMatch(/^sha_/);
    expect(tokens.refresh_token).toMatch(/^shr_/);
    // The RFC 8707 resource became the token's audience.
    const introspection = await app.fetch("/api/oauth/introspect", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, client_id: String(provider.info!.client_id) }),
    });
    expect(await introspection.json()).toMatchObject({ active: true, aud: resourceUrl, scope: "courses:read openid profile" });
    // A later auth() call refreshes with rotation.
    expect(await auth(provider, { serverUrl: resourceUrl })).toBe("AUTHORIZED");
    expect(provider.saved!.refresh_token).not.toBe(tokens.refresh_token);
  }

  it("completes with the pre-registered mcp_client_id", async () => {
    const discovery = (await (await app.fetch("/.well-known/oauth-authorization-server")).json()) as { mcp_client_id: string };
    const provider = new TestProvider({ client_id: discovery.mcp_client_id });
    await run(provider);
    expect(provider.info!.client_id).toBe("schoolhouse-mcp");
  });

  /** auth() against this app's own MCP server, then a tool call with the token it obtained. */
  async function useRealMcp(provider: TestProvider) {
    const mcpUrl = `${app.url}/mcp`;
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe("REDIRECT");
    expect(provider.authorizationUrl!.searchParams.get("resource")).toBe(mcpUrl);
    const callback = await browse(provider.authorizationUrl!, DEMO_IDS.school);
    expect(await auth(provider, { serverUrl: mcpUrl, authorizationCode: callback.searchParams.get("code")! })).toBe("AUTHORIZED");
    const client = new Client({ name: "standards-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
    const result = await client.callTool({ name: "search_catalog", arguments: { query: "sql" } });
    expect(result.isError).toBeFalsy();
    await client.close();
  }

  it("completes with a Client ID Metadata Document client", async () => {
    const provider = new TestProvider(undefined, metadataUrl);
    await run(provider);
    expect(provider.info!.client_id).toBe(metadataUrl);
    expect(await db().oAuthGrant.count({ where: { clientId: metadataUrl } })).toBe(1);
  });

  it("the mcp_client_id client and a metadata document client work with this school's /mcp out of the box", async () => {
    await useRealMcp(new TestProvider({ client_id: "schoolhouse-mcp" }));
    await useRealMcp(new TestProvider(undefined, metadataUrl));
  });
});
