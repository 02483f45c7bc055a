import { describe, expect, it } from "vitest";
import { RESPONSE_EXCERPT_LENGTH, responseExcerpt } from "./deliver";

describe("responseExcerpt", () => {
  it("keeps the start of the answer, readable: control characters become spaces, at most 500 characters", () => {
    expect(responseExcerpt('{"ok":false,\n\t"error":"bad signature"}')).toBe('{"ok":false,\n\t"error":"bad signature"}');
    expect(responseExcerpt("\u001b[31mred\u0000\u007f\u0085text")).toBe("[31mred   text");
    expect(responseExcerpt("x".repeat(2000))).toHaveLength(RESPONSE_EXCERPT_LENGTH);
    expect(responseExcerpt("")).toBeNull();
    expect(responseExcerpt(" \u0000 ")).toBeNull();
  });
});
