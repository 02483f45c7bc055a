import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { operationTypeOfDocument } from "./operation-type";

describe("operationTypeOfDocument (the one classifier: limiter and idempotency)", () => {
  it.each([
    ["mutation { a }", "mutations"],
    ["mutation M($x: Int) { a(x: $x) }", "mutations"],
    ["   \n\t mutation{a}", "mutations"],
    ["\uFEFFmutation { a }", "mutations"],
    [", ,mutation { a }", "mutations"],
    ["# a comment\nmutation { a }", "mutations"],
    ["# one\r\n  # two\n  mutation { a }", "mutations"],
    ["{ a }", "queries"],
    ["query { a }", "queries"],
    ["subscription { a }", "queries"],
    ["{ __schema { types { name } } }", "queries"],
    ["# mutation { a }\n{ a }", "queries"],
  ])("the spec's rule on one operation: %j → %s", (query, expected) => {
    expect(operationTypeOfDocument(parse(query))).toBe(expected);
  });

  it("classifies the operation that runs in a multi-operation document", () => {
    const doc = parse("query A { a } mutation B { b }");
    expect(operationTypeOfDocument(doc, "A")).toBe("queries");
    expect(operationTypeOfDocument(doc, "B")).toBe("mutations");
    expect(operationTypeOfDocument(parse("mutation B { b } query A { a }"), "A")).toBe("queries");
  });
});
