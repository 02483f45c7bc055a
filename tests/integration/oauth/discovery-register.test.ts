import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { appForSuite } from "../../helpers/app-for-suite";

const app = appForSuite({ host: "demo.localhost:3000" });

afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnvCache();
  clearSchoolCache();
});

type Metadata = Record<string, unknown>;
const discover = async (headers: Record<string, string> = {}) => {
  const res = await app.fetch("/.well-known/oauth-authorization-server", { headers });
  return { res, body: (await res.json()) as Metadata };
};

describe("discovery (RFC 8414)", () => {
  it("lists every field with absolute URLs on the requesting school's origin", async () => {
    const { res, body } = await discover();
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const o = "http://demo.localhost:3000";
    expect(body).toEqual({
      issuer: o,
      authorization_endpoint: `${o}/oauth/authorize`,
      token_endpoint: `${o}/api/oauth/token`,
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
      token_endpoint_auth_signing_alg_values_supported: ["RS256", "PS256", "ES256", "EdDSA"],
      revocation_endpoint: `${o}/api/oauth/revoke`,
      revocation_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
      revocation_endpoint_auth_signing_alg_values_supported: ["RS256", "PS256", "ES256", "EdDSA"],
      introspection_endpoint: `${o}/api/oauth/introspect`,
      introspection_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
      introspection_endpoint_auth_signing_alg_values_supported: ["RS256", "PS256", "ES256", "EdDSA"],
      registration_endpoint: `${o}/api/oauth/register`,
      userinfo_endpoint: `${o}/api/oauth/userinfo`,
      // OpenID Connect Discovery (issue 25): the same document is /.well-known/openid-configuration.
      jwks_uri: `${o}/api/oauth/jwks`,
      end_session_endpoint: `${o}/oauth/end-session`,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
      id_token_signing_alg_values_supported: ["RS256", "ES256"],
      claim_types_supported: ["normal"],
      claims_parameter_supported: false,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      // The values /oauth/authorize honours (tests/integration/oauth/prompt.test.ts).
      prompt_values_supported: ["none", "login", "consent"],
      scopes_supported: ["openid", "profile", "email", "offline_access", "courses:read", "students:read", "subscriptions:read", "subscriptions:write", "enrollments:write", "webhooks:manage"],
      subject_types_supported: ["public"],
      claims_supported: [
        "sub", "name", "picture", "email", "email_verified", "org_id", "roles",
        "iss", "aud", "exp", "iat", "auth_time", "nonce", "azp", "at_hash", "sid", "amr",
      ],
      authorization_response_iss_parameter_supported: true,
      // Advertised only when some host's documents are accepted (OAUTH_CIMD_ALLOWED_HOSTS; the
      // suites set it empty, a deployment's default is "*").
      client_id_metadata_document_supported: false,
      service_documentation: `${o}/oauth/docs`,
      mcp_client_id: "schoolhouse-mcp",
    });
    expect(String(body.issuer).endsWith("/")).toBe(false);
  });

  it("the mcp_client_id is a seeded public client", async () => {
    const { body } = await discover();
    const client = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: String(body.mcp_client_id) } });
    expect(client.tokenEndpointAuthMethod).toBe("none");
    expect(client.clientSecretHash).toBeNull();
  });

  it("another school's host gets its own origin", async () => {
    const { body } = await discover({ host: "acme-training.localhost" });
    expect(body.issuer).toBe("http://acme-training.localhost");
    expect(body.token_endpoint).toBe("http://acme-training.localhost/api/oauth/token");
  });

  it("forwarded headers count only with TRUST_PROXY", async () => {
    const fwd = { "x-forwarded-host": "acme-training.schoolhouse.app", "x-forwarded-proto": "https" };
    expect((await discover(fwd)).body.issuer).toBe("http://demo.localhost:3000");
    process.env.TRUST_PROXY = "1";
    process.env.PLATFORM_DOMAIN = "schoolhouse.app";
    resetEnvCache();
    try {
      expect((await discover(fwd)).body.issuer).toBe("https://acme-training.schoolhouse.app");
    } finally {
      delete process.env.PLATFORM_DOMAIN;
    }
  });

  it("a deployment's default accepts Client ID Metadata Documents from any public host (issue 25), and says so", async () => {
    const saved = process.env.OAUTH_CIMD_ALLOWED_HOSTS;
    delete process.env.OAUTH_CIMD_ALLOWED_HOSTS;
    resetEnvCache();
    try {
      expect((await discover()).body.client_id_metadata_document_supported).toBe(true);
      const docs = await (await app.fetch("/oauth/docs")).text();
      expect(docs).toContain("Client ID Metadata Document on any public host");
      expect(docs).toContain("private_key_jwt");
    } finally {
      process.env.OAUTH_CIMD_ALLOWED_HOSTS = saved;
    }
  });

  it("an unknown school host is a 404", async () => {
    const { res } = await discover({ host: "nope.localhost" });
    expect(res.status).toBe(404);
  });

  it("answers preflight", async () => {
    const res = await app.fetch("/.well-known/oauth-authorization-server", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("service_documentation resolves", async () => {
    const res = await app.fetch("/oauth/docs");
    expect(res.status).toBe(200);
    const docs = await res.text();
    expect(docs).toContain("http://demo.localhost:3000/api/oauth/token");
    // Agents learn the resource server from the docs too (issue 13).
    expect(docs).toContain("- Endpoint: http://demo.localhost:3000/mcp ");
    expect(docs).toContain("http://demo.localhost:3000/.well-known/oauth-protected-resource/mcp");
    // States only what this configuration does: no CIMD host is allowed by default.
    expect(docs).toContain("Client ID Metadata Documents are not accepted by this server.");
    expect(docs).toContain("previous secret keeps working for 24 hours");
    // Issue 12: the issuer binding and the prompt values, as the server does them.
    expect(docs).toContain("Codes and tokens work only at the address that issued them (http://demo.localhost:3000)");
    expect(docs).toContain("`prompt` at the authorize endpoint: `none`");
    expect(docs).toContain("discovery at http://demo.localhost:3000/.well-known/openid-configuration, keys at http://demo.localhost:3000/api/oauth/jwks");
    expect(docs).toContain("ID tokens are signed RS256, or\n  ES256 for a client registered with that `id_token_signed_response_alg`.");
  });
});

const register = (body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) =>
  app.fetch("/api/oauth/register", { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });

describe("registration (known vendor platforms only)", () => {
  it("registers Zapier with the defaults and no secret", async () => {
    const res = await register({ client_name: "Zapier" });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_name: "Zapier",
      redirect_uris: ["https://zapier.com/dashboard/auth/oauth/return/SchoolhouseCLIAPI/"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "RS256",
      scope: "openid profile email offline_access courses:read students:read",
    });
    expect(typeof body.client_id).toBe("string");
    expect("client_secret" in body).toBe(false);
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { clientId: String(body.client_id) } });
    expect(row.clientSecretHash).toBeNull();
    expect(row.vendorPlatformId).not.toBeNull();
  });

  it("the same configuration again returns the same client; a narrower one gets its own", async () => {
    const a = (await (await register({ client_name: "make" })).json()) as { client_id: string; scope: string; client_name: string };
    const b = (await (await register({ client_name: "Make" })).json()) as { client_id: string };
    expect(a.client_id).toBe(b.client_id);
    expect(a.client_name).toBe("Make");
    expect(a.scope).toBe("openid profile email offline_access courses:read");
    const c = (await (await register({ client_name: "Make", grant_types: ["authorization_code"] })).json()) as { client_id: string; grant_types: string[] };
    expect(c.client_id).not.toBe(a.client_id);
    expect(c.grant_types).toEqual(["authorization_code"]);
  });

  it("a registered vendor client can start an authorization", async () => {
    const { client_id } = (await (await register({ client_name: "Zapier" })).json()) as { client_id: string };
    const res = await app.fetch(
      `/oauth/authorize?response_type=code&client_id=${client_id}&redirect_uri=${encodeURIComponent("https://zapier.com/dashboard/auth/oauth/return/SchoolhouseCLIAPI/")}&scope=openid&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`,
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/login\?/);
  });

  it.each([
    ["unknown client_name", { client_name: "Totally Legit Vendor" }, "invalid_client_metadata"],
    ["missing client_name", { redirect_uris: [] }, "invalid_client_metadata"],
    ["client_secret_post", { client_name: "Zapier", token_endpoint_auth_method: "client_secret_post" }, "invalid_client_metadata"],
    ["implicit grant", { client_name: "Zapier", grant_types: ["implicit"] }, "invalid_client_metadata"],
    ["token response type", { client_name: "Zapier", response_types: ["token"] }, "invalid_client_metadata"],
    ["redirect_uri not on file for the platform", { client_name: "Zapier", redirect_uris: ["https://evil.example/cb"] }, "invalid_redirect_uri"],
    ["not JSON", "{nope", "invalid_client_metadata"],
  ])("%s → 400 %s", async (_name, body, error) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(error);
  });

  it("a form body → 400 invalid_client_metadata", async () => {
    const res = await register("client_name=Zapier", { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(400);
  });
});
