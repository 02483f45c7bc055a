import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its wasm and data files relative to its own module; bundling breaks that.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg"],
  // The migrator reads SQL files at run time; ship them with every serverless function.
  outputFileTracingIncludes: { "/**": ["./prisma/migrations/**/*"] },
  poweredByHeader: false,
  reactStrictMode: true,
  typescript: { ignoreBuildErrors: false },
};

export default config;
