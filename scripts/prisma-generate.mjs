// Runs `prisma generate` offline. The Prisma CLI downloads its schema engine before every
// command unless PRISMA_SCHEMA_ENGINE_BINARY names a file; generate never executes it, so any
// existing file satisfies the check. Then renumbers the client's parameterization graph
// (./prisma-param-graph.mjs): the same graph in 12 MB less of every server's heap; and moves its
// query compiler into a file beside it (./prisma-compiler-wasm.mjs): 4.4 MB less.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { externalizeCompilerWasm } from "./prisma-compiler-wasm.mjs";
import { compactGeneratedClient } from "./prisma-param-graph.mjs";

const require = createRequire(import.meta.url);
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate"], { stdio: "inherit", env });
if (result.status !== 0) process.exit(result.status ?? 1);

// A Prisma release that writes the graph or the loader differently leaves that part of the client
// as generated (it works, only larger) and fails the script's test, rather than failing every install.
const file = path.resolve(import.meta.dirname, "../lib/db/generated/internal/class.ts");
try {
  compactGeneratedClient(file);
} catch (err) {
  console.warn(`prisma-generate: the parameterization graph was left as generated: ${/** @type {Error} */ (err).message}`);
}
try {
  externalizeCompilerWasm(file);
} catch (err) {
  console.warn(`prisma-generate: the query compiler was left as a base64 module: ${/** @type {Error} */ (err).message}`);
}
