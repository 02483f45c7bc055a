// The production entry (server/start.mjs) behaves as `next start` did: start-up (instrumentation.ts:
// migrate, seed) runs once per process, and SIGTERM lets an open request finish (here one the OAuth
// front is answering, its body still arriving), then exits 143. The build it runs holds its server
// chunks one byte per character.
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, startNextServer } from "./next-server";

test("start-up runs once; SIGTERM finishes the open request, then exits 143", async () => {
  // A fresh server's start-up (migrations, seed) on a loaded two-core machine.
  test.setTimeout(120_000);
  const port = await freePort();
  const server = startNextServer(port, { NODE_ENV: "production", PGLITE_DATA_DIR: "memory://", DATABASE_URL: "", REDIS_URL: "", PLATFORM_DOMAIN: "localhost", DEFAULT_SCHOOL: "demo", MAIL_URL: "" });
  try {
    await server.healthy();
    expect(server.output().match(/^schoolhouse: applied migrations: /gm)).toHaveLength(1);
    expect(server.output().match(/^schoolhouse: seeded the demo schools/gm)).toHaveLength(1);

    const socket = connect(port, "127.0.0.1");
    const answer = new Promise<string>((resolve) => {
      let out = "";
      socket.on("data", (d) => (out += d));
      socket.on("close", () => resolve(out));
      socket.on("error", () => resolve(out));
    });
    socket.write(`POST /api/oauth/token HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n5\r\ngrant\r\n`);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(server.child.pid!, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    // Still serving the request that was open when the signal came.
    socket.write("14\r\n_type=client_secrets\r\n0\r\n\r\n");
    socket.end();
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(text).toContain("unsupported_grant_type");
    expect(await server.exited).toBe(143);
    // New connections are refused once it has stopped.
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  } finally {
    await server.stop("SIGKILL");
  }
});

// next build rewrites wide characters in the server chunks as escapes (scripts/one-byte-chunks.mjs,
// next.config.mjs): a chunk left with one holds its whole source at two bytes per character in
// every server that loads it (docs/benchmarks.md, "Memory").
test("the build's server chunks are one byte per character", () => {
  const dir = path.join(process.cwd(), ".next/server");
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(c|m)?js$/.test(e.name));
  expect(files.length).toBeGreaterThan(100);
  const wide = files.map((e) => path.join(e.parentPath, e.name)).filter((f) => /[^\x00-\xff]/.test(readFileSync(f, "utf8")));
  expect(wide.map((f) => path.relative(dir, f))).toEqual([]);
});
