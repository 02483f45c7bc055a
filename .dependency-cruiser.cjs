// The layers of lib/, written down once (docs/architecture.md, "Layers" explains them). `npm test`
// runs `npm run layers`, which fails on any import that breaks a rule below, naming the rule.
// Bottom to top; a module may import its own layer and the layers below it, never above:
//   base        lib/env.ts, lib/clock.ts, lib/demo-secrets.ts, lib/demo-ids.ts, lib/lru-map.ts
//   db          lib/db/           persistence: client, drivers, raw statements, write transaction, outbox
//   shared      lib/core/ (ids, paging, roles, HTML page shell), lib/credentials/, lib/security/,
//               lib/http/, lib/net/, lib/tenancy/, lib/edge/
//   features    the domains: audit, membership, billing, webhooks, schools, content, auth, oauth, storefront, mail,
//               idempotency, rate-limit, health (they may use each other, without cycles)
//   transports  lib/admin-api/, lib/mcp/ (they do not use each other), lib/account/ (the account pages and forms),
//               lib/console/ (the staff console)
//   top         lib/startup/ (migrate, seed, start-up), lib/bench/
//   app         app/, proxy.ts, instrumentation.ts (and scripts/, tests/): never imported by lib/
const BASE = "^lib/(env|clock|demo-secrets|demo-ids|lru-map)(\\.test)?\\.ts$";
const DB = "^lib/db/";
const SHARED = "^lib/(core|credentials|security|http|net|tenancy|edge)/";
const FEATURES = "^lib/(audit|membership|billing|webhooks|schools|content|auth|oauth|oidc|storefront|idempotency|rate-limit|health|mail)/";
const TRANSPORTS = "^lib/(admin-api|mcp|account|console)/";
const TOP = "^lib/(startup|bench)/";
const APP = "^(app/|proxy\\.ts$|instrumentation\\.ts$)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules import each other in a loop (type-only imports count too): move the shared part into its own module.",
      from: {},
      to: { circular: true },
    },
    {
      name: "lib-has-layers",
      severity: "error",
      comment: "A lib/ module outside every layer: add its folder to a layer in .dependency-cruiser.cjs and docs/architecture.md.",
      from: { path: "^lib/", pathNot: [BASE, DB, SHARED, FEATURES, TRANSPORTS, TOP, "^lib/db/generated/"] },
      to: { path: "^lib/" },
    },
    {
      name: "base-imports-nothing-of-lib",
      severity: "error",
      comment: "lib/env.ts, lib/clock.ts, lib/demo-secrets.ts, lib/demo-ids.ts and lib/lru-map.ts are the bottom: they import nothing else of lib/.",
      from: { path: BASE },
      to: { path: "^lib/", pathNot: BASE },
    },
    {
      name: "db-is-the-floor",
      severity: "error",
      comment: "lib/db holds persistence primitives and imports only the base (env, clock); seeding and start-up live in lib/startup.",
      from: { path: DB },
      to: { path: "^lib/", pathNot: [BASE, DB] },
    },
    {
      name: "shared-below-features",
      severity: "error",
      comment: "The shared ground floor (core, credentials, security, http, net, tenancy, edge) imports only itself, lib/db and the base.",
      from: { path: SHARED },
      to: { path: "^lib/", pathNot: [BASE, DB, SHARED] },
    },
    {
      name: "features-below-transports",
      severity: "error",
      comment: "Domain features do not import a transport (lib/admin-api, lib/mcp) nor start-up: move what both need below them.",
      from: { path: FEATURES },
      to: { path: [TRANSPORTS, TOP] },
    },
    {
      name: "transports-apart",
      severity: "error",
      comment: "The Admin API and MCP do not import each other: what both use belongs in a feature or the ground floor.",
      from: { path: "^lib/(admin-api|mcp)/" },
      to: { path: TRANSPORTS, pathNot: "^lib/$1/" },
    },
    {
      name: "startup-is-the-top",
      severity: "error",
      comment: "Only lib/startup and lib/bench (and app/, scripts/, tests/) import start-up and seeding.",
      from: { path: "^lib/", pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: "lib-below-app",
      severity: "error",
      comment: "lib/ never imports app/, proxy.ts or instrumentation.ts (routes call lib, not the other way), nor scripts/ or tests/.",
      from: { path: "^lib/" },
      to: { path: [APP, "^(scripts|tests)/"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^lib/db/generated/"] },
    exclude: { path: ["^\\.next/", "^node_modules/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};
