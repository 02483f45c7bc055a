// @ts-check
// JavaScript, not TypeScript: on Node 20 `next start` compiles a next.config.ts with Next's SWC
// native module, which then stays mapped in every server (24 MB of its peak RSS, issue 15,
// docs/benchmarks.md "Memory"). The build-time environment check below still uses lib/env.ts.
import path from "node:path";
import { PHASE_PRODUCTION_BUILD } from "next/constants.js";

/** @type {import("next").NextConfig} */
const config = {
  // PGlite loads its wasm and data files relative to its own module; bundling breaks that.
  // graphql: one copy for every bundle, loaded by Node. Bundled, the builds mixed graphql's
  // ESM files (yoga's imports) with its CommonJS ones (Armor's deep `graphql/language/parser`
  // import among them): a GraphQLError of one copy is not an instance of the other's class, so yoga
  // answered syntax errors, and in the proxy's bundle rate-limit refusals, 500 "Unexpected error."
  // (docs/benchmarks.md, 15admin3; tests/e2e/admin-proxy-served.spec.ts, rate-limit-instances.spec.ts).
  // @graphql-tools/executor (yoga's executor): bundled, each of its many calls into graphql per
  // field went through one shared export getter of the bundler's, megamorphic, 10% of the CPU of
  // courses(first: 50); loaded by Node it calls graphql directly (docs/benchmarks.md, "Admin API").
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "graphql", "@graphql-tools/executor"],
  // The migrator reads SQL files, the demo seed content folders and Prisma's client its query
  // compiler (scripts/prisma-compiler-wasm.mjs) at run time; ship them with every serverless function.
  outputFileTracingIncludes: { "/**": ["./prisma/migrations/**/*", "./content/**/*", "./lib/db/generated/internal/query-compiler.wasm"] },
  poweredByHeader: false,
  // Storefront pages are rendered once per key into Next's incremental cache (app/%5Fsite,
  // lib/storefront/page-cache.ts). Keys change with content, so old renderings are never read
  // again: keep them in the bounded in-memory LRU only, never as files that pile up on disk.
  cacheMaxMemorySize: 32 * 1024 * 1024,
  experimental: {
    isrFlushToDisk: false,
    // forbidden(): the staff console's pages and actions answer 403 with app/manage/forbidden.tsx
    // when a role may not open them (lib/console/permissions.ts).
    authInterrupts: true,
    // Load a route's code on its first request instead of every route's at start: a server that
    // never serves the MCP endpoint, the OpenAPI document or the login pages never holds their code
    // (docs/benchmarks.md, "Memory").
    preloadEntriesOnStart: false,
  },
  // Next hashes every cached page's HTML in JavaScript on every response for an ETag (13% of the
  // CPU serving html-course, docs/benchmarks.md). Pages are sent no-store, so nothing revalidates
  // with it; the markdown and text routes set their own strong ETags and are not affected.
  generateEtags: false,
  compiler: {
    // Server chunks rewritten with \uXXXX escapes for characters above U+00FF, so V8 holds each
    // loaded chunk's source at one byte per character instead of two (scripts/one-byte-chunks.mjs,
    // docs/benchmarks.md "Memory"). Runs before Next prerenders pages from the same chunks.
    async runAfterProductionCompile({ distDir }) {
      const { oneByteChunks } = await import("./scripts/one-byte-chunks.mjs");
      const { skipped } = oneByteChunks(path.join(distDir, "server"));
      for (const s of skipped) console.warn(`schoolhouse: .next/server/${s.file} stays two bytes per character: ${s.reason}`);
    },
  },
  reactStrictMode: true,
  typescript: { ignoreBuildErrors: false },
  // Pages that take credentials or consent must never render inside another site's frame
  // (clickjacking). Server components cannot set headers, so they are set here by path.
  async headers() {
    const noFraming = [
      { key: "X-Frame-Options", value: "DENY" },
      { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
      { key: "Referrer-Policy", value: "no-referrer" },
    ];
    // The staff console's pages post their forms to server actions (app/manage): under no-referrer
    // the browser sends `Origin: null` with a form post made without JavaScript, and Next's action
    // check and ours (lib/console/same-origin.ts) then refuse it as cross-site (Next with a 500).
    // same-origin sends this origin's Origin with its own posts and no referrer to any other site.
    const consoleHeaders = noFraming.map((h) => (h.key === "Referrer-Policy" ? { key: h.key, value: "same-origin" } : h));
    return [
      ...["/login", "/login/:path*", "/account/:path*", "/oauth/:path*", "/api/auth/:path*", "/admin/:path*"].map((source) => ({ source, headers: noFraming })),
      ...["/manage", "/manage/:path*"].map((source) => ({ source, headers: consoleHeaders })),
    ];
  },
};

/**
 * A production build checks the environment the deployment will run with (Vercel builds with the
 * runtime env), so a bad deployment fails its build, not its first request. SKIP_ENV_VALIDATION=1
 * is for builds that do not see the runtime environment (a container image built once).
 */
/** @param {string} phase @returns {Promise<import("next").NextConfig>} */
export default async function nextConfig(phase) {
  if (phase === PHASE_PRODUCTION_BUILD && !process.env.SKIP_ENV_VALIDATION) {
    // Only the build loads TypeScript (tsx, a dev dependency the build has anyway).
    const { tsImport } = await import("tsx/esm/api");
    /** @type {typeof import("./lib/env")} */
    const { ConfigError, parseEnv } = await tsImport("./lib/env.ts", import.meta.url);
    try {
      parseEnv({ ...process.env, NODE_ENV: "production" });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      console.error(`schoolhouse: invalid configuration for this build: ${err.message}`);
      process.exit(1);
    }
  }
  return config;
}
