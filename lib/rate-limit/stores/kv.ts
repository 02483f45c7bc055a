// Shared limiter state in @vercel/kv (the Upstash REST protocol), for deployments on Vercel.
import { createClient, type VercelKV } from "@vercel/kv";
import type { RateLimitStore } from "../types";
import { ScriptStore } from "./scripts";

export interface KvStoreOptions {
  url: string;
  token: string;
  prefix?: string;
  /** Tests only: use the caller's `now` instead of Redis TIME. */
  callerClock?: boolean;
  /** Per-request timeout (ms). The client's own retries are off: the limiter decides what a failure means. */
  timeoutMs?: number;
}

export class KvStore extends ScriptStore implements RateLimitStore {
  readonly kind = "kv";
  private readonly kv: VercelKV;

  constructor(options: KvStoreOptions) {
    super(options.prefix ?? "sh:rl", options.callerClock ?? false);
    const timeoutMs = options.timeoutMs ?? 500;
    this.kv = createClient({
      url: options.url,
      token: options.token,
      retry: false,
      // A function, so every request gets a fresh timeout (a shared signal would abort once for all).
      signal: () => AbortSignal.timeout(timeoutMs),
      // Replies are parsed by the store; the client's JSON guessing would turn "1e3"-like strings into numbers.
      automaticDeserialization: false,
    });
  }

  protected readonly run = (command: "evalsha" | "eval", scriptOrSha: string, keys: string[], args: string[]) =>
    command === "evalsha" ? this.kv.evalsha(scriptOrSha, keys, args) : this.kv.eval(scriptOrSha, keys, args);

  async ping(): Promise<void> {
    await this.kv.ping();
  }
}
