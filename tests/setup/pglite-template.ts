// Vitest globalSetup: migrates one PGlite database per run and dumps it to a file; each test
// file then loads that dump instead of running initdb + migrations itself (~3 s saved per file).
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { migrate } from "../../lib/db/migrator";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const pglite = new PGlite();
  await migrate({ driver: { kind: "pglite", pglite, dataDir: "memory://" } });
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  const file = path.join(tmpdir(), `schoolhouse-pglite-template-${process.pid}-${Date.now()}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);
  return () => rmSync(file, { force: true });
}
