// Ids of the rows that only ever grow at one end (payments, outbox events, audit rows, mails, the
// test provider's charges): UUID version 7 (RFC 9562, section 5.7), whose first 48 bits are the Unix
// time in milliseconds. A random (v4) id puts each insert on a random page of the primary key's
// index, so a table that outgrows the database's buffers reads and writes back a page per insert;
// a v7 id lands at the index's right edge, on pages just touched (docs/decisions.md, "Time-ordered
// ids"). They stay UUIDs: the columns, isUuid and every API take them as before.
import { randomFillSync } from "node:crypto";

// Random bytes are drawn a pool at a time (as crypto.randomUUID does): one call per 400 ids.
const ID_BYTES = 10;
const POOL = Buffer.alloc(400 * ID_BYTES);
let offset = POOL.length;

function randomBytesOfId(): Buffer {
  if (offset + ID_BYTES > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const bytes = POOL.subarray(offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return bytes;
}

// Monotonic within the process (RFC 9562, section 6.2, method 1): ids made in the same millisecond
// count up in the 12 bits after the time (rand_a), from a random start in its lower half; when they
// run out, the time moves on a millisecond. Ids also never go back when the system clock does.
let lastMs = -1;
let counter = 0;

/** A new UUIDv7 at the real time (not a test clock's `now`: the order is the order of insertion). */
export function timeOrderedId(nowMs: number = Date.now()): string {
  const rand = randomBytesOfId();
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = ((rand[0]! << 8) | rand[1]!) & 0x7ff;
  } else if (counter < 0xfff) {
    counter += 1;
  } else {
    lastMs += 1;
    counter = ((rand[0]! << 8) | rand[1]!) & 0x7ff;
  }
  const ms = lastMs.toString(16).padStart(12, "0");
  const randA = (0x7000 | counter).toString(16);
  // rand_b: 62 random bits after the variant bits (binary 10).
  const variant = (((rand[2]! & 0x3f) | 0x80) << 8) | rand[3]!;
  return `${ms.slice(0, 8)}-${ms.slice(8)}-${randA}-${variant.toString(16)}-${rand.toString("hex", 4, 10)}`;
}

/** The creation time a UUIDv7 carries (its first 48 bits); null for any other UUID version. */
export function timeOfId(id: string): Date | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return null;
  return new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
}
