import { db } from "./client";
import { unavailableReason } from "./unavailable";

/** `promise`, or an ETIMEDOUT error after `ms`. */
export function deadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: "ETIMEDOUT" })), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** `SELECT 1` within `timeoutMs`: null when the database answers, else why not (lib/db/unavailable.ts, or "error"). */
export async function probeDatabase(timeoutMs: number): Promise<string | null> {
  try {
    await deadline(db().$queryRawUnsafe("SELECT 1"), timeoutMs);
    return null;
  } catch (err) {
    return unavailableReason(err) ?? "error";
  }
}
