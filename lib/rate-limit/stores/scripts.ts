// The limiter rules of algorithms.ts as Lua, one atomic script per decision. Time is Redis TIME
// (instance clocks can disagree) unless ARGV[1] carries a caller time (only test stores do that).
// Keys share a hash tag so a Redis Cluster keeps one credential's keys on one slot.
import { createHash } from "node:crypto";
import type { AdmitRequest, AdmitResult, CompleteRequest, CompleteResult, Denial, RateLimitStore } from "../types";

const NOW = `
local now = tonumber(ARGV[1])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;

const BALANCE = `
local function balance_at(key, now, capacity, rate)
  local b = redis.call('HMGET', key, 'b', 't')
  if not b[1] then return capacity end
  return math.min(capacity, tonumber(b[1]) + math.max(0, now - tonumber(b[2])) * rate)
end`;

// KEYS: window zset, leases zset, bucket hash.
// ARGV: now|-1, limit, windowMs, maxInFlight, leaseTtlMs, runtimeBudgetMs, enforce, leaseId.
export const ADMIT_SCRIPT = `${NOW}${BALANCE}
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local max_in_flight = tonumber(ARGV[4])
local lease_ttl = tonumber(ARGV[5])
local capacity = tonumber(ARGV[6])
local lease = ARGV[8]

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local active = redis.call('ZCARD', KEYS[2])
local balance = balance_at(KEYS[3], now, capacity, capacity / window)

local denial = ''
if ARGV[7] == '1' then
  if count >= limit then denial = 'per_minute'
  elseif active >= max_in_flight then denial = 'active_operations'
  elseif balance <= 0 then denial = 'runtime' end
end
if denial == '' then
  -- The lease id makes the member unique: same-millisecond requests all count.
  redis.call('ZADD', KEYS[1], now, now .. ':' .. lease)
  redis.call('PEXPIRE', KEYS[1], window)
  redis.call('ZADD', KEYS[2], now + lease_ttl, lease)
  redis.call('PEXPIRE', KEYS[2], lease_ttl)
  count = count + 1
  active = active + 1
end
local free_at = ''
if count > 0 then
  local idx = math.max(0, count - limit)
  local e = redis.call('ZRANGE', KEYS[1], idx, idx, 'WITHSCORES')
  if e[2] then free_at = tostring(tonumber(e[2]) + window) end
end
return { denial, tostring(now), count, active, tostring(balance), free_at }
`;

// KEYS: leases zset, bucket hash. ARGV: now|-1, leaseId, durationMs, runtimeBudgetMs, windowMs.
export const COMPLETE_SCRIPT = `${NOW}${BALANCE}
local capacity = tonumber(ARGV[4])
local rate = capacity / tonumber(ARGV[5])
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local active = redis.call('ZCARD', KEYS[1])
local balance = balance_at(KEYS[2], now, capacity, rate) - tonumber(ARGV[3])
redis.call('HSET', KEYS[2], 'b', tostring(balance), 't', tostring(now))
-- Once full, a missing bucket reads as full: keep it only until then.
redis.call('PEXPIRE', KEYS[2], math.ceil((capacity - balance) / rate) + 1000)
return { tostring(now), active, tostring(balance) }
`;

export const sha1 = (script: string) => createHash("sha1").update(script).digest("hex");
export const ADMIT_SHA = sha1(ADMIT_SCRIPT);
export const COMPLETE_SHA = sha1(COMPLETE_SCRIPT);

export function keysFor(prefix: string, credentialKey: string) {
  const tag = `${prefix}:{${credentialKey}}`;
  return {
    mutations: `${tag}:m`,
    queries: `${tag}:q`,
    leases: `${tag}:ops`,
    bucket: `${tag}:rt`,
  };
}

export function admitArgs(prefix: string, req: AdmitRequest, callerClock: boolean) {
  const k = keysFor(prefix, req.key);
  const { limits } = req;
  return {
    keys: [k[req.operationType], k.leases, k.bucket],
    args: [
      callerClock ? String(Math.floor(req.now)) : "-1",
      String(limits.perMinute[req.operationType]),
      String(limits.windowMs),
      String(limits.maxInFlight),
      String(limits.leaseTtlMs),
      String(limits.runtimeBudgetMs),
      req.enforce ? "1" : "0",
      req.leaseId,
    ],
  };
}

export function completeArgs(prefix: string, req: CompleteRequest, callerClock: boolean) {
  const k = keysFor(prefix, req.key);
  return {
    keys: [k.leases, k.bucket],
    args: [
      callerClock ? String(Math.floor(req.now)) : "-1",
      req.leaseId,
      String(req.durationMs),
      String(req.limits.runtimeBudgetMs),
      String(req.limits.windowMs),
    ],
  };
}

const num = (v: unknown): number => {
  const n = Number(typeof v === "string" || typeof v === "number" ? v : NaN);
  if (!Number.isFinite(n)) throw new Error(`rate-limit store: unexpected reply ${JSON.stringify(v)}`);
  return n;
};

export function parseAdmitReply(reply: unknown): AdmitResult {
  if (!Array.isArray(reply) || reply.length !== 6) throw new Error(`rate-limit store: unexpected reply ${JSON.stringify(reply)}`);
  const [denial, now, count, active, balance, freeAt] = reply.map((v) => (typeof v === "string" ? v : v == null ? "" : String(v)));
  return {
    admitted: denial === "",
    denial: denial === "" ? null : (denial as Denial),
    now: num(now),
    windowCount: num(count),
    active: num(active),
    balanceMs: num(balance),
    windowFreeAt: freeAt === "" ? null : num(freeAt),
  };
}

export function parseCompleteReply(reply: unknown): CompleteResult {
  if (!Array.isArray(reply) || reply.length !== 3) throw new Error(`rate-limit store: unexpected reply ${JSON.stringify(reply)}`);
  return { now: num(reply[0]), active: num(reply[1]), balanceMs: num(reply[2]) };
}

/** EVALSHA, falling back to EVAL once when the server does not know the script yet. */
export async function evalCached(
  run: RunScript,
  script: string,
  sha: string,
  keys: string[],
  args: string[],
): Promise<unknown> {
  try {
    return await run("evalsha", sha, keys, args);
  } catch (err) {
    if (err instanceof Error && /noscript/i.test(err.message)) return run("eval", script, keys, args);
    throw err;
  }
}

/** How a store sends one script command (EVALSHA or EVAL) to its server. */
export type RunScript = (command: "evalsha" | "eval", scriptOrSha: string, keys: string[], args: string[]) => Promise<unknown>;

/**
 * admit and complete of the stores that run these scripts (Redis over TCP, @vercel/kv over REST):
 * the keys, arguments, replies and the EVALSHA fallback are the same; only `run`, how a command
 * reaches the server, differs.
 */
export abstract class ScriptStore implements Pick<RateLimitStore, "admit" | "complete"> {
  protected abstract readonly run: RunScript;

  protected constructor(
    private readonly prefix: string,
    private readonly callerClock: boolean,
  ) {}

  async admit(req: AdmitRequest): Promise<AdmitResult> {
    const { keys, args } = admitArgs(this.prefix, req, this.callerClock);
    return parseAdmitReply(await evalCached(this.run, ADMIT_SCRIPT, ADMIT_SHA, keys, args));
  }

  async complete(req: CompleteRequest): Promise<CompleteResult> {
    const { keys, args } = completeArgs(this.prefix, req, this.callerClock);
    return parseCompleteReply(await evalCached(this.run, COMPLETE_SCRIPT, COMPLETE_SHA, keys, args));
  }
}
