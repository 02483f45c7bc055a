// One benchmark target: a graphql-yoga endpoint with the rate-limit plugin on a given store, or
// without it ("off"). Started by bench/rate-limit.ts in its own process; prints "ready <port>".
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { Redis } from "ioredis";
import type { Credential } from "../lib/credentials/credential";
import { DEFAULT_LIMITS } from "../lib/rate-limit/config";
import { RateLimiter } from "../lib/rate-limit/limiter";
import { MemoryStore } from "../lib/rate-limit/stores/memory";
import { RedisStore } from "../lib/rate-limit/stores/redis";
import type { RateLimitStore } from "../lib/rate-limit/types";
import { rateLimitPlugin } from "../lib/rate-limit/yoga-plugin";

const variant = process.argv[2] ?? "off";
// Limits high enough that nothing is refused: the benchmark measures the cost of admitting.
const limits = { ...DEFAULT_LIMITS, perMinute: { mutations: 1e9, queries: 1e9 }, maxInFlight: 1e6 };
const credential: Credential = { kind: "api_key", id: `bench-${process.pid}`, schoolId: "bench", permissions: [], enforceLimits: true };

let sent = 0;
function store(): RateLimitStore | null {
  if (variant === "memory") return new MemoryStore();
  if (variant === "redis") {
    const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    const send = client.sendCommand.bind(client);
    client.sendCommand = (...args: Parameters<typeof send>) => {
      sent++;
      return send(...args);
    };
    return new RedisStore({ redis: client, prefix: `bench:rl:${process.pid}` });
  }
  return null;
}

const s = store();
// "noop": a plugin that only wraps execution, to separate the hook's own cost from the limiter's.
const noop: Plugin = { onExecute: ({ executeFn, setExecuteFn }) => setExecuteFn((args) => executeFn(args)) };
// Next.js gives every request an abort signal; the node adapter used here creates one lazily,
// on first access (and aborts it, with a DOMException, when the response closes). Touch it in
// every variant so the limiter, which listens to it, is not charged for what Next.js always does.
const likeNext: Plugin = { onRequest: ({ request }) => void request.signal };
const plugins: Plugin[] = [likeNext];
plugins.push(...(s ? [rateLimitPlugin({ limiter: new RateLimiter({ store: s, limits }) })] : variant === "noop" ? [noop] : []));
const yoga = createYoga({
  schema: createSchema({ typeDefs: "type Query { hello: String! }", resolvers: { Query: { hello: () => "world" } } }),
  graphqlEndpoint: "/graphql",
  logging: false,
  context: () => ({ credential }),
  plugins,
});
let operations = 0;
const server = createServer((req, res) => {
  if (req.url === "/stats") {
    const cpu = process.cpuUsage();
    res.end(JSON.stringify({ operations, roundTrips: sent, cpuMicros: cpu.user + cpu.system }));
    return;
  }
  operations++;
  void yoga(req, res);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`ready ${(server.address() as AddressInfo).port}`);
});
// Exit cleanly on SIGTERM so `node --cpu-prof` can write its profile.
process.on("SIGTERM", () => process.exit(0));
