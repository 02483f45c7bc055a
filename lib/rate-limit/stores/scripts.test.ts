import { describe, expect, it } from "vitest";
import { evalCached, keysFor, parseAdmitReply, parseCompleteReply } from "./scripts";

describe("evalCached", () => {
  it("sends EVALSHA, and EVAL once when the server does not know the script", async () => {
    const sent: string[] = [];
    const run = async (command: "evalsha" | "eval") => {
      sent.push(command);
      if (command === "evalsha") throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      return "ok";
    };
    expect(await evalCached(run, "return 1", "sha", [], [])).toBe("ok");
    expect(sent).toEqual(["evalsha", "eval"]);
  });
  it("passes other errors on", async () => {
    await expect(evalCached(async () => Promise.reject(new Error("ECONNREFUSED")), "s", "h", [], [])).rejects.toThrow("ECONNREFUSED");
  });
});

describe("replies", () => {
  it("parses admit and complete replies from Redis (integers and strings) and REST (numbers)", () => {
    expect(parseAdmitReply(["", "1700000000000", 3, 1, "59999.5", "1700000060000"])).toEqual({
      admitted: true,
      denial: null,
      now: 1_700_000_000_000,
      windowCount: 3,
      active: 1,
      balanceMs: 59_999.5,
      windowFreeAt: 1_700_000_060_000,
    });
    expect(parseAdmitReply(["runtime", "5", "0", "0", "-10", ""])).toMatchObject({ admitted: false, denial: "runtime", windowFreeAt: null });
    expect(parseCompleteReply(["7", 0, "-3.25"])).toEqual({ now: 7, active: 0, balanceMs: -3.25 });
  });
  it("refuses a malformed reply instead of guessing", () => {
    expect(() => parseAdmitReply(["", "x", 1, 1, "1", ""])).toThrow(/unexpected reply/);
    expect(() => parseCompleteReply("OK")).toThrow(/unexpected reply/);
  });
});

it("keeps one credential's keys in one cluster slot", () => {
  const k = keysFor("sh:rl", "api_key:abc");
  expect(Object.values(k)).toEqual(["sh:rl:{api_key:abc}:m", "sh:rl:{api_key:abc}:q", "sh:rl:{api_key:abc}:ops", "sh:rl:{api_key:abc}:rt"]);
});
