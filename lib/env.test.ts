import { describe, expect, it } from "vitest";
import { ConfigError, DEV_AUTH_SECRET, parseEnv, seedOnStart } from "./env";

describe("parseEnv", () => {
  it("gives the embedded defaults for an empty environment", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PGLITE_DATA_DIR).toBe(".data/pglite");
    expect(env.PLATFORM_DOMAIN).toBe("localhost");
    expect(env.DEFAULT_SCHOOL).toBe("demo");
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.SEED_ON_START).toBeUndefined();
    expect(seedOnStart(env)).toBe(true);
    expect(env.AUTH_SECRET).toBeUndefined();
    expect(env.RATE_LIMIT_MUTATIONS).toBe(200);
    expect(env.RATE_LIMIT_QUERIES).toBe(600);
    expect(env.RATE_LIMIT_WINDOW_SECONDS).toBe(60);
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PLATFORM_DOMAIN: "" }).PLATFORM_DOMAIN).toBe("localhost");
  });

  it("names the variable in the error", () => {
    expect(() => parseEnv({ PLATFORM_DOMAIN: "Not A Host" })).toThrow(ConfigError);
    expect(() => parseEnv({ PLATFORM_DOMAIN: "Not A Host" })).toThrow(/^PLATFORM_DOMAIN: /);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/^DATABASE_URL: must be a postgres/);
    expect(() => parseEnv({ TRUST_PROXY: "maybe" })).toThrow(/^TRUST_PROXY: /);
    expect(() => parseEnv({ RATE_LIMIT_MUTATIONS: "-3" })).toThrow(/^RATE_LIMIT_MUTATIONS: /);
    expect(() => parseEnv({ REDIS_URL: "http://x" })).toThrow(/^REDIS_URL: /);
  });

  it("allows loopback webhook receivers only under NODE_ENV=test; the worker is on by default", () => {
    expect(parseEnv({}).WEBHOOKS_WORKER).toBe(true);
    expect(parseEnv({}).WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS).toBe(false);
    expect(() => parseEnv({ WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS: "1", NODE_ENV: "production" })).toThrow(/^WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS: is only allowed with NODE_ENV=test/);
    expect(() => parseEnv({ WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS: "1" })).toThrow(/only allowed with NODE_ENV=test/);
    expect(parseEnv({ WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS: "1", NODE_ENV: "test" }).WEBHOOKS_ALLOW_LOOPBACK_FOR_TESTS).toBe(true);
  });

  it("parses flags and numbers", () => {
    const env = parseEnv({ TRUST_PROXY: "1", SEED_ON_START: "false", RATE_LIMIT_QUERIES: "30" });
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.SEED_ON_START).toBe(false);
    expect(env.RATE_LIMIT_QUERIES).toBe(30);
  });

  it("requires a real AUTH_SECRET in production with an external database", () => {
    const base = { NODE_ENV: "production", DATABASE_URL: "postgresql://u@h/db" };
    expect(() => parseEnv(base)).toThrow(/^AUTH_SECRET: is required/);
    expect(parseEnv({ ...base, AUTH_SECRET: "x".repeat(32) }).AUTH_SECRET).toBe("x".repeat(32));
    expect(() => parseEnv({ AUTH_SECRET: "short" })).toThrow(/^AUTH_SECRET: must be at least 32/);
  });

  it("refuses the published test secret and the README's demo credentials in production", () => {
    expect(() => parseEnv({ NODE_ENV: "production", AUTH_SECRET: DEV_AUTH_SECRET })).toThrow(/^AUTH_SECRET: is the published test secret/);
    const prod = { NODE_ENV: "production", DATABASE_URL: "postgresql://u@h/db", AUTH_SECRET: "x".repeat(32) };
    expect(() => parseEnv({ ...prod, DEMO_PASSWORD: "schoolhouse-demo" })).toThrow(/^DEMO_PASSWORD: is a demo credential/);
    expect(() => parseEnv({ ...prod, DEMO_API_KEY: "sh_demofull_demo-admin-key-all-permissions-dev-only" })).toThrow(/^DEMO_API_KEY: /);
    // The embedded demo keeps the README's credentials, in production mode too (npm start).
    expect(parseEnv({ NODE_ENV: "production", DEMO_PASSWORD: "schoolhouse-demo" }).DEMO_PASSWORD).toBe("schoolhouse-demo");
  });

  it("seeds by default only on the embedded database", () => {
    expect(seedOnStart(parseEnv({ DATABASE_URL: "postgresql://u@h/db" }))).toBe(false);
    expect(seedOnStart(parseEnv({ DATABASE_URL: "postgresql://u@h/db", SEED_ON_START: "1" }))).toBe(true);
    expect(seedOnStart(parseEnv({ SEED_ON_START: "0" }))).toBe(false);
  });

  it("requires the two KV variables together", () => {
    expect(() => parseEnv({ KV_REST_API_URL: "https://kv.example" })).toThrow(/^KV_REST_API_TOKEN: /);
    expect(() => parseEnv({ KV_REST_API_TOKEN: "t" })).toThrow(/^KV_REST_API_URL: /);
  });
});

describe("deployment rules", () => {
  it("refuses the embedded database on Vercel, whose filesystem does not last", () => {
    expect(() => parseEnv({ VERCEL: "1" })).toThrow(/^DATABASE_URL: is required on Vercel/);
    expect(parseEnv({ VERCEL: "1", DATABASE_URL: "postgresql://u@db.example/app", AUTH_SECRET: "x".repeat(32) }).VERCEL).toBe(true);
  });

  it("takes a direct URL for migrations beside the pooled one", () => {
    const e = parseEnv({ DATABASE_URL: "postgresql://u@pooler.example/app", DIRECT_DATABASE_URL: "postgresql://u@db.example/app" });
    expect(e.DIRECT_DATABASE_URL).toBe("postgresql://u@db.example/app");
    expect(() => parseEnv({ DIRECT_DATABASE_URL: "mysql://x" })).toThrow(/^DIRECT_DATABASE_URL: must be a postgres/);
  });
});
