import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { operationTypeOfDocument, operationTypeOfQuery } from "./operation-type";

describe("operationTypeOfQuery (the spec's rule on the query string)", () => {
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
    ["query Q { a } mutation M { b }", "queries"],
    ["subscription { a }", "queries"],
    ["{ __schema { types { name } } }", "queries"],
    ["# mutation { a }\n{ a }", "queries"],
    ["mutationX { a }", "queries"],
    ["MUTATION { a }", "queries"],
    ["", "queries"],
  ])("%j → %s", (query, expected) => {
    expect(operationTypeOfQuery(query)).toBe(expected);
  });
});

describe("operationTypeOfDocument (the operation that runs)", () => {
  it("agrees with the string rule for one operation", () => {
    for (const q of ["mutation { a }", "# c\n mutation { a }", "{ a }", "query { a }", "{ __typename }"]) {
      expect(operationTypeOfDocument(parse(q))).toBe(operationTypeOfQuery(q));
    }
  });
  it("counts the selected operation of a multi-operation document", () => {
    const doc = parse("query A { a } mutation B { b }");
    expect(operationTypeOfDocument(doc, "A")).toBe("queries");
    expect(operationTypeOfDocument(doc, "B")).toBe("mutations");
  });
});
