import fc from "fast-check";
import type { GraphQLError } from "graphql";
import { describe, expect, it } from "vitest";
import { asOurGraphQLError, assertQuerySize, lexWithinLimits, OPERATION_LIMITS, parseWithinLimits, QUERY_SIZE_MEMO, YOGA_GRAPHQL_ERROR } from "./operation-limits";

const outcome = (check: (s: string) => void, source: string) => {
  try {
    check(source);
    return "ok";
  } catch (err) {
    return (err as GraphQLError).extensions?.code ?? String(err);
  }
};

// Documents near the limits: brackets to nest past maxNesting, names to pass maxTokens.
const piece = fc.constantFrom("{", "}", "(", ")", "[", "]", "a ", "b: 1 ", "# c\n", '"s" ', "...", "$v ", "\u0000", "@d ");
const document = fc.oneof(
  fc.array(piece, { maxLength: 120, size: "max" }).map((p) => p.join("")),
  fc.integer({ min: 40, max: 60 }).map((n) => "{".repeat(n) + " a " + "}".repeat(n)),
  fc.integer({ min: 9_990, max: 10_010 }).map((n) => `{ ${"a ".repeat(n - 2)}}`),
  fc.string(),
);

describe("assertQuerySize's memo of documents within the limits", () => {
  it("gives the answer of the check itself, on first sight and when seen again", () => {
    fc.assert(
      fc.property(fc.array(document, { minLength: 1, maxLength: 6 }), (docs) => {
        for (const d of [...docs, ...docs]) expect(outcome(assertQuerySize, d)).toBe(outcome(lexWithinLimits, d));
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it("stays within its bounds and keeps refusing what is over a limit", () => {
    const tooNested = "{".repeat(OPERATION_LIMITS.maxNesting + 1);
    for (let i = 0; i < QUERY_SIZE_MEMO.maxEntries + 50; i++) assertQuerySize(`{ f${i} }`);
    expect(() => assertQuerySize(tooNested)).toThrow(/nests more than/);
    expect(() => assertQuerySize(tooNested)).toThrow(/nests more than/);
  });
});

describe("syntax errors made by another copy of graphql", () => {
  it("are turned into yoga's GraphQLError with the same message and locations", () => {
    // What parse throws reaches yoga as its own class (converted where armor's copy differs).
    // What a second (CommonJS) copy of graphql throws: an Error named GraphQLError, not an instance of ours.
    let original: GraphQLError | undefined;
    try {
      parseWithinLimits("{ courses(");
    } catch (err) {
      original = err as GraphQLError;
    }
    expect(original).toBeInstanceOf(YOGA_GRAPHQL_ERROR);
    const foreign = Object.assign(new Error(original!.message), {
      name: "GraphQLError",
      source: original!.source,
      positions: original!.positions,
      extensions: {},
    });
    const converted = asOurGraphQLError(foreign) as GraphQLError;
    expect(converted).toBeInstanceOf(YOGA_GRAPHQL_ERROR);
    expect(converted.toJSON()).toEqual(original!.toJSON());
    // Ours and other errors pass through unchanged.
    expect(asOurGraphQLError(original)).toBe(original);
    const plain = new Error("x");
    expect(asOurGraphQLError(plain)).toBe(plain);
  });
});
