import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite loads its wasm and data files relative to its own module; bundling breaks that.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg"],
  // The migrator reads SQL files and the demo seed reads content folders at run time; ship them with every serverless function.
  outputFileTracingIncludes: { "/**": ["./prisma/migrations/**/*", "./content/**/*"] },
  poweredByHeader: false,
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
    return ["/login", "/login/:path*", "/account/:path*", "/oauth/:path*", "/api/auth/:path*", "/admin/:path*"].map((source) => ({
      source,
      headers: noFraming,
    }));
  },
};

export default config;
