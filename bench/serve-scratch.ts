// A bench server on Postgres and Redis for bench/server-cpu.ts: a scratch database (migrated, demo
// seed, bench keys and OAuth tokens; with BENCH_LARGE_SCALE=<scale> in the environment also the
// large-school dataset), the bench's SMTP sink and the existing build, started as the bench starts
// it. Prints the server's pid, origin, database URL, API keys, OAuth client and access tokens (and
// writes them to --out), then runs until SIGINT/SIGTERM, when it stops the server and drops the
// database.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//     npx tsx bench/serve-scratch.ts --port 3203 [--env WEBHOOKS_WORKER=0] [--cpu-prof-dir dir] [--out file.json]
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startMailSink } from "./mail-sink";
import { prepareDatabase, scratchPostgres, serverEnv, type Backend } from "./scratch-db";
import { BenchServer, benchOrigin } from "./server";

const { values: opts } = parseArgs({
  options: { port: { type: "string" }, env: { type: "string", multiple: true }, "cpu-prof-dir": { type: "string" }, out: { type: "string" } },
});
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!opts.port || !databaseUrl || !redisUrl) {
  console.error("usage: DATABASE_URL=… REDIS_URL=… serve-scratch.ts --port <n> [--env KEY=value]… [--cpu-prof-dir dir] [--out file]");
  process.exit(2);
}
const port = Number(opts.port);
const extraEnv = Object.fromEntries((opts.env ?? []).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));

await startMailSink();
const db = await scratchPostgres(databaseUrl);
const backend: Backend = { name: "postgres+redis", database: "postgres", limiterStore: "redis", env: { ...db.env, REDIS_URL: redisUrl }, redisUrl, cleanup: db.cleanup };
const creds = prepareDatabase(backend, 16, 8, benchOrigin(port), {}, 10);
const server = await BenchServer.start({ port, env: { ...serverEnv(backend), ...extraEnv }, cpuProfileDir: opts["cpu-prof-dir"] });
const info = { pid: server.pid, origin: server.origin, databaseUrl: db.env.DATABASE_URL, countedKeys: creds.countedKeys, enforcedKeys: creds.enforcedKeys, oauthClientId: creds.oauthClientId, accessTokens: creds.accessTokens };
if (opts.out) writeFileSync(opts.out, JSON.stringify(info, null, 2));
console.log(JSON.stringify(info));

const stop = async () => {
  await server.stop();
  await db.cleanup();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
setInterval(() => {}, 1 << 30);
