// Shared limiter state in @vercel/kv (the Upstash REST protocol), for deployments on Vercel.
import { createClient, type VercelKV } from "@vercel/kv";
import type { AdmitRequest, AdmitResult, CompleteRequest, CompleteResult, RateLimitStore } from "../types";
import {
  ADMIT_SCRIPT,
  ADMIT_SHA,
  COMPLETE_SCRIPT,
  COMPLETE_SHA,
  admitArgs,
  completeArgs,
  evalCached,
  parseAdmitReply,
  parseCompleteReply,
} from "./scripts";

export interface KvStoreOptions {
  url: string;
  token: string;
  prefix?: string;
  /** Tests only: use the caller's `now` instead of Redis TIME. */
  callerClock?: boolean;
  /** Per-request timeout (ms). The client's own retries are off: the limiter decides what a failure means. */
  timeoutMs?: number;
}

export class KvStore implements RateLimitStore {
  readonly kind = "kv";
  private readonly kv: VercelKV;
  private readonly prefix: string;
  private readonly callerClock: boolean;

  constructor(options: KvStoreOptions) {
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
    this.prefix = options.prefix ?? "sh:rl";
    this.callerClock = options.callerClock ?? false;
  }

  private run = (command: "evalsha" | "eval", scriptOrSha: string, keys: string[], args: string[]) =>
    command === "evalsha" ? this.kv.evalsha(scriptOrSha, keys, args) : this.kv.eval(scriptOrSha, keys, args);

  async admit(req: AdmitRequest): Promise<AdmitResult> {
    const { keys, args } = admitArgs(this.prefix, req, this.callerClock);
    return parseAdmitReply(await evalCached(this.run, ADMIT_SCRIPT, ADMIT_SHA, keys, args));
  }

  async complete(req: CompleteRequest): Promise<CompleteResult> {
    const { keys, args } = completeArgs(this.prefix, req, this.callerClock);
    return parseCompleteReply(await evalCached(this.run, COMPLETE_SCRIPT, COMPLETE_SHA, keys, args));
  }

  async ping(): Promise<void> {
    await this.kv.ping();
  }
}
