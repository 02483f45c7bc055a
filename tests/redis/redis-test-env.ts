import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

export const redisUrl = () => {
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error("TEST_REDIS_URL is not set (the redis project only runs with it)");
  return url;
};

/** A key prefix of its own per test file, so runs never see each other's counters. */
export const testPrefix = () => `test:rl:${randomUUID().slice(0, 8)}`;

export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  return redis.keys(`${prefix}:*`);
}
