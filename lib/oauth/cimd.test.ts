import { describe, expect, it } from "vitest";
import { CIMD_DEFAULT_TTL_SECONDS, CIMD_MAX_TTL_SECONDS, ClientMetadataError, checkClientIdUrl, fetchClientMetadata, parseClientMetadata, ttlFromHeaders } from "./cimd";

const policy = { allowedHosts: ["meta.example"], allowLoopbackForTests: false };
const fakeDns = (address: string) => (async () => [{ address, family: address.includes(":") ? 6 : 4 }]) as never;

describe("checkClientIdUrl", () => {
  it("accepts an https URL with a path on an allowlisted host", () => {
    expect(checkClientIdUrl("https://meta.example/client.json", policy).hostname).toBe("meta.example");
  });

  it.each([
    ["http", "http://meta.example/client.json", /https/],
    ["a host off the allowlist", "https://other.example/client.json", /not accepted/],
    ["no path", "https://meta.example/", /path/],
    ["a fragment", "https://meta.example/c.json#x", /fragment/],
    ["credentials", "https://u:p@meta.example/c.json", /credentials/],
    ["not normalized", "https://META.example/c.json", /normalized/],
    ["loopback http without the test switch", "http://127.0.0.1:4000/c.json", /https/],
  ])("refuses %s", (_name, url, message) => {
    expect(() => checkClientIdUrl(url, { ...policy, allowedHosts: ["meta.example", "127.0.0.1"] })).toThrow(message);
  });

  it("'*' allows any host, but never loopback http unless listed by name in tests", () => {
    expect(checkClientIdUrl("https://any.example/c.json", { allowedHosts: ["*"], allowLoopbackForTests: false }).host).toBe("any.example");
    expect(() => checkClientIdUrl("http://127.0.0.1:4000/c.json", { allowedHosts: ["*"], allowLoopbackForTests: true })).toThrow(ClientMetadataError);
    expect(checkClientIdUrl("http://127.0.0.1:4000/c.json", { allowedHosts: ["127.0.0.1"], allowLoopbackForTests: true }).port).toBe("4000");
  });
});

describe("fetchClientMetadata refuses private and special-use addresses before connecting", () => {
  it.each(["10.0.0.5", "127.0.0.1", "169.254.169.254", "::1", "fd00::1", "::ffff:192.168.0.1"])("%s", async (address) => {
    await expect(fetchClientMetadata({ clientId: "https://meta.example/c.json", policy, resolve: fakeDns(address) })).rejects.toThrow(/private or special-use/);
  });

  it("a host that does not resolve is a client metadata error, not a crash", async () => {
    const resolve = (async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
    }) as never;
    await expect(fetchClientMetadata({ clientId: "https://meta.example/c.json", policy, resolve })).rejects.toThrow(ClientMetadataError);
  });

  it("refuses when any DNS answer is private", async () => {
    const resolve = (async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ]) as never;
    await expect(fetchClientMetadata({ clientId: "https://meta.example/c.json", policy, resolve })).rejects.toThrow(/private/);
  });
});

describe("parseClientMetadata", () => {
  const id = "https://meta.example/c.json";
  const ok = { client_id: id, client_name: "Agent", redirect_uris: ["http://127.0.0.1/callback"] };

  it("reads a valid document with defaults", () => {
    expect(parseClientMetadata(id, JSON.stringify(ok))).toMatchObject({
      clientId: id,
      clientName: "Agent",
      grantTypes: ["authorization_code", "refresh_token"],
      responseTypes: ["code"],
    });
  });

  it("reads id_token_signed_response_alg: RS256 unless the document asks for ES256", () => {
    expect(parseClientMetadata(id, JSON.stringify(ok)).idTokenSignedResponseAlg).toBe("RS256");
    expect(parseClientMetadata(id, JSON.stringify({ ...ok, id_token_signed_response_alg: "ES256" })).idTokenSignedResponseAlg).toBe("ES256");
  });

  it.each([
    ["id_token_signed_response_alg none", { ...ok, id_token_signed_response_alg: "none" }, /id_token_signed_response_alg must be one of RS256, ES256/],
    ["id_token_signed_response_alg HS256", { ...ok, id_token_signed_response_alg: "HS256" }, /id_token_signed_response_alg must be one of RS256, ES256/],
    ["client_id different from the URL", { ...ok, client_id: "https://meta.example/other.json" }, /does not equal/],
    ["a client_secret", { ...ok, client_secret: "s" }, /client_secret/],
    ["auth method other than none", { ...ok, token_endpoint_auth_method: "client_secret_post" }, /token_endpoint_auth_method/],
    ["no redirect_uris", { ...ok, redirect_uris: [] }, /redirect_uris/],
    ["a bad redirect URI", { ...ok, redirect_uris: ["not a url"] }, /redirect_uris/],
  ])("refuses %s", (_name, doc, message) => {
    expect(() => parseClientMetadata(id, JSON.stringify(doc))).toThrow(message);
  });

  it("refuses non-JSON", () => {
    expect(() => parseClientMetadata(id, "<html>")).toThrow(/JSON/);
  });
});

describe("ttlFromHeaders (RFC 9111 freshness, as a shared cache)", () => {
  const at = Date.parse("2026-11-23T08:00:00Z");
  it.each([
    ["no caching headers", {}, CIMD_DEFAULT_TTL_SECONDS],
    ["max-age", { "cache-control": "public, max-age=120" }, 120],
    ["s-maxage before max-age", { "cache-control": "max-age=600, s-maxage=60" }, 60],
    ["Age already spent", { "cache-control": "max-age=120", age: "100" }, 20],
    ["Age beyond the lifetime", { "cache-control": "max-age=120", age: "500" }, 0],
    ["Expires", { expires: new Date(at + 90_000).toUTCString() }, 90],
    ["Expires in the past", { expires: new Date(at - 90_000).toUTCString() }, 0],
    ["max-age before Expires", { "cache-control": "max-age=30", expires: new Date(at + 90_000).toUTCString() }, 30],
    ["no-store", { "cache-control": "no-store, max-age=600" }, 0],
    ["no-cache", { "cache-control": "no-cache" }, 0],
    ["private", { "cache-control": "private, max-age=600" }, 0],
    ["a lifetime above the cap", { "cache-control": "max-age=99999999" }, CIMD_MAX_TTL_SECONDS],
  ])("%s", (_name, headers, ttl) => {
    expect(ttlFromHeaders(headers, at)).toBe(ttl);
  });
});
