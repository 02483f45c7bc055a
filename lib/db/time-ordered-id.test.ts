import { describe, expect, it } from "vitest";
import { timeOfId, timeOrderedId } from "./time-ordered-id";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("timeOrderedId (UUIDv7, RFC 9562 section 5.7)", () => {
  it("is a version 7, variant 10 UUID, carrying the time it was made", () => {
    const before = Date.now();
    const id = timeOrderedId();
    const after = Date.now();
    expect(id).toMatch(V7);
    const at = timeOfId(id)!.getTime();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after + 1);
  });

  it("sorts in the order ids were made, within a millisecond too (as text and as Postgres compares uuids: bytewise)", () => {
    const ids = Array.from({ length: 20_000 }, () => timeOrderedId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("is random after the time and counter (62 bits): two processes' ids of the same millisecond do not collide", () => {
    const tails = new Set(Array.from({ length: 10_000 }, () => timeOrderedId().slice(19)));
    expect(tails.size).toBe(10_000);
  });

  it("timeOfId reads no time from other UUIDs", () => {
    expect(timeOfId(crypto.randomUUID())).toBeNull();
    expect(timeOfId("not an id")).toBeNull();
  });
  // The last two move the generator's clock into the future (it never goes back): they come last.
  it("puts the milliseconds since the epoch in the first 48 bits", () => {
    const ms = Date.UTC(2030, 0, 2, 3, 4, 5, 678);
    const id = timeOrderedId(ms);
    expect(id.slice(0, 8) + id.slice(9, 13)).toBe(ms.toString(16).padStart(12, "0"));
    expect(timeOfId(id)!.getTime()).toBe(ms);
  });

  it("keeps counting up past 4,096 ids in one millisecond, and when the clock goes back", () => {
    const ms = Date.UTC(2031, 5, 6);
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId(ms));
    ids.push(timeOrderedId(ms - 60_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // Borrowed from the next milliseconds only as far as needed (at least 2,048 ids a millisecond).
    expect(timeOfId(ids.at(-1)!)!.getTime() - ms).toBeLessThanOrEqual(5);
  });
});
