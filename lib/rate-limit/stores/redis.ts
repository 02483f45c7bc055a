// Shared limiter state in Redis over TCP (ioredis), for self-hosted clusters.
import { Redis, type RedisOptions } from "ioredis";
import type { RateLimitStore } from "../types";
import { ScriptStore } from "./scripts";

export interface RedisStoreOptions {
  /** A redis:// URL or an ioredis client (not closed by the store). */
  redis: string | Redis;
  /** Key prefix; every key gets a TTL. */
  prefix?: string;
  /** Tests only: use the caller's `now` instead of Redis TIME, to drive window edges exactly. */
  callerClock?: boolean;
  /** Connect and command timeout (ms) for a URL; the limiter adds its own deadline on top. */
  timeoutMs?: number;
}

export function redisClientOptions(timeoutMs: number): RedisOptions {
  return {
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // Fail fast while disconnected instead of queueing requests behind a dead socket.
    maxRetriesPerRequest: 0,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    lazyConnect: false,
    // Commands issued in the same tick (the admits and releases of requests served together) go
    // out in one socket write. Each write to the socket was the largest single cost of an Admin
    // operation on Postgres+Redis (docs/benchmarks.md, "Admin API": ~9% of the server's CPU for two
    // writes per operation). The commands and their number are unchanged; each script still runs
    // atomically and replies are matched in order.
    enableAutoPipelining: true,
  };
}

export class RedisStore extends ScriptStore implements RateLimitStore {
  readonly kind = "redis";
  private readonly client: Redis;
  private readonly ownsClient: boolean;

  constructor(options: RedisStoreOptions) {
    super(options.prefix ?? "sh:rl", options.callerClock ?? false);
    this.ownsClient = typeof options.redis === "string";
    this.client = typeof options.redis === "string" ? new Redis(options.redis, redisClientOptions(options.timeoutMs ?? 500)) : options.redis;
    // An unreachable server is reported by the failing calls; keep ioredis from logging each retry.
    if (this.ownsClient) this.client.on("error", () => {});
  }

  protected readonly run = (command: "evalsha" | "eval", scriptOrSha: string, keys: string[], args: string[]) =>
    this.client.call(command, scriptOrSha, String(keys.length), ...keys, ...args);

  async ping(): Promise<void> {
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.ownsClient) this.client.disconnect();
  }
}
