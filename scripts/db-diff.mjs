#!/usr/bin/env node
// Writes a new SQL migration from the change to prisma/schema.prisma since a git revision.
//
//   npm run db:diff -- <migration_name> [--from <git-rev>]   (default rev: HEAD)
//
// Prisma 7's CLI needs a downloaded schema engine for `migrate diff`; Prisma 6.19 can diff two
// schema files offline on its wasm engine (engine "js" + a pg driver adapter that is never
// used for data). So this installs prisma@6.19 into a cache folder once, rewrites both schemas into
// the 6.19 dialect, diffs them, and puts partial-index WHERE clauses back (6.19 cannot express them).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const name = args.find((a) => !a.startsWith("--"));
const fromIdx = args.indexOf("--from");
const fromRev = fromIdx >= 0 ? args[fromIdx + 1] : "HEAD";
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:diff -- <migration_name in snake_case> [--from <git-rev>]");
  process.exit(2);
}

// The adapter opens a connection (it reads the server version) but the diff touches no table.
const diffUrl = process.env.DIFF_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const tool = path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "schoolhouse-prisma6");
if (!existsSync(path.join(tool, "node_modules/.bin/prisma"))) {
  mkdirSync(tool, { recursive: true });
  writeFileSync(path.join(tool, "package.json"), '{"private":true,"type":"module"}\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "prisma@6.19", "@prisma/adapter-pg@6.19", "pg"], {
    cwd: tool,
    stdio: "inherit",
  });
}
writeFileSync(
  path.join(tool, "prisma.config.ts"),
  `import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: "to.prisma",
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
`,
);

/** Collects `map name → where clause` of partial unique indexes, then rewrites to the 6.19 dialect. */
const partials = new Map();
function toPrisma6(schema) {
  for (const m of schema.matchAll(/map:\s*"([^"]+)",\s*where:\s*raw\("((?:[^"\\]|\\.)*)"\)/g)) {
    partials.set(m[1], m[2].replace(/\\"/g, '"'));
  }
  return schema
    .replace(/generator \w+ \{[\s\S]*?\n\}\n/g, "")
    .replace(/provider = "postgresql"/, 'provider = "postgresql"\n  url      = env("DATABASE_URL")')
    .replace(/,\s*where:\s*raw\("(?:[^"\\]|\\.)*"\)/g, "");
}

let fromSchema = 'datasource db {\n  provider = "postgresql"\n}\n';
try {
  fromSchema = execFileSync("git", ["show", `${fromRev}:prisma/schema.prisma`], { cwd: root, encoding: "utf8" });
} catch {
  console.error(`no prisma/schema.prisma at ${fromRev}: diffing from an empty database`);
}
const toSchema = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8");
const fromPartials = new Map(partials);
writeFileSync(path.join(tool, "from.prisma"), toPrisma6(fromSchema));
partials.clear();
writeFileSync(path.join(tool, "to.prisma"), toPrisma6(toSchema));

const res = spawnSync(
  path.join(tool, "node_modules/.bin/prisma"),
  ["migrate", "diff", "--from-schema-datamodel", "from.prisma", "--to-schema-datamodel", "to.prisma", "--script"],
  {
    cwd: tool,
    encoding: "utf8",
    env: {
      ...process.env,
      DATABASE_URL: diffUrl,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      // Any existing file stops the CLI from downloading engines that the wasm path never loads.
      PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
      PRISMA_QUERY_ENGINE_LIBRARY: process.execPath,
    },
  },
);
if (res.status !== 0) {
  console.error(res.stderr);
  process.exit(res.status ?? 1);
}
let sql = res.stdout;
for (const [index, where] of partials) {
  const re = new RegExp(`(CREATE (?:UNIQUE )?INDEX "${index}" ON [^;]+);`);
  sql = sql.replace(re, `$1 WHERE ${where};`);
}
for (const [index, where] of partials) {
  if (fromPartials.get(index) && fromPartials.get(index) !== where) {
    sql += `\n-- ${index}: WHERE clause changed\nDROP INDEX "${index}";\n-- recreate it by hand with: WHERE ${where}\n`;
  }
}
if (!sql.trim() || /^-- This is an empty migration\.\s*$/.test(sql.trim())) {
  console.error("schema.prisma has no change since " + fromRev);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const dir = path.join(root, "prisma/migrations", `${stamp}_${name}`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), sql);
console.log(`wrote ${path.relative(root, dir)}/migration.sql`);
