import { describe, expect, it } from "vitest";
import { jsonProblem, MAX_JSON_DEPTH } from "./body";

const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe("jsonProblem", () => {
  it("checks half a million elements without overflowing the stack (issue 29, item 17)", () => {
    expect(jsonProblem({ extensions: { x: new Array(500_001).fill(1) } })).toBeUndefined();
    expect(jsonProblem({ x: [...new Array(500_000).fill("a"), "b\u0000"] })).toBe("nul");
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more, at any depth`, () => {
    expect(jsonProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonProblem(nested(MAX_JSON_DEPTH + 1))).toBe("too_deep");
    expect(jsonProblem(nested(200_000))).toBe("too_deep");
  });

  it("finds NUL in values and keys, unless NUL is allowed", () => {
    expect(jsonProblem({ a: ["x", { b: "y\u0000" }] })).toBe("nul");
    expect(jsonProblem({ a: { "k\u0000": 1 } })).toBe("nul");
    expect(jsonProblem(JSON.parse('{"__proto__": "\\u0000"}'))).toBe("nul");
    expect(jsonProblem({ a: "x\u0000" }, { allowNul: true })).toBeUndefined();
    expect(jsonProblem({ a: "x\u0000", b: nested(MAX_JSON_DEPTH + 1) }, { allowNul: true })).toBe("too_deep");
  });

  it("accepts scalars and empty containers", () => {
    for (const v of [null, 1, "s", true, [], {}]) expect(jsonProblem(v)).toBeUndefined();
  });
});
