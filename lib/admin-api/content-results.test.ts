import { parse } from "graphql";
import { createSchema } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import type { AdminContext } from "./context";
import { contentResultKey, contentRootFields } from "./content-results";
import { adminSchema } from "./schema";

const typeDefs = `
  type Query { courses: CourseConnection! plans: [String!]! }
  type CourseConnection { nodes: [Course!]! }
  type Course { id: String! title: String! }
`;

const ctx = (permissions: string[], schoolId = "school-a") => ({ credential: { schoolId, permissions }, apiVersion: "2026-01" }) as unknown as AdminContext;

describe("contentRootFields", () => {
  it("lets courses through on the Admin schema (every field under it keeps the default resolver)", () => {
    expect([...contentRootFields(adminSchema).keys()].sort()).toEqual(["__typename", "courses"]);
  });

  it("drops a root field once anything reachable from it has a resolver of its own", () => {
    const plain = createSchema({ typeDefs, resolvers: { Query: { courses: () => ({ nodes: [] }) } } });
    expect(contentRootFields(plain).has("courses")).toBe(true);
    const resolved = createSchema({ typeDefs, resolvers: { Query: { courses: () => ({ nodes: [] }) }, Course: { title: () => "read elsewhere" } } });
    expect(contentRootFields(resolved).has("courses")).toBe(false);
  });
});

describe("contentResultKey", () => {
  const eligible = contentRootFields(adminSchema);
  const key = (query: string, context = ctx(["courses"]), variableValues?: unknown, operationName?: string) =>
    contentResultKey(eligible, { document: parse(query), contextValue: context, variableValues, operationName });

  it("keys a content-only query by school, API version, document, operation and variables", () => {
    const document = parse(`query A($n: Int) { courses(first: $n) { nodes { id } } } query B { __typename courses { nodes { id } } }`);
    const of = (context: AdminContext, variableValues: unknown, operationName: string) => contentResultKey(eligible, { document, contextValue: context, variableValues, operationName });
    const base = of(ctx(["courses"]), { n: 1 }, "A");
    expect(base).not.toBeNull();
    expect(of(ctx(["courses"]), { n: 1 }, "A")).toBe(base);
    expect(of(ctx(["courses"]), { n: 2 }, "A")).not.toBe(base);
    expect(of(ctx(["courses"], "school-b"), { n: 1 }, "A")).not.toBe(base);
    expect(of(ctx(["courses"]), { n: 1 }, "B")).not.toBe(base);
    // Another parse of the same text is another document: it gets a key of its own.
    expect(key(`query A($n: Int) { courses(first: $n) { nodes { id } } } query B { __typename courses { nodes { id } } }`, ctx(["courses"]), { n: 1 }, "A")).not.toBe(base);
  });

  it("gives no key to what may read more than content, or to a key without the permission", () => {
    expect(key(`{ courses { nodes { id } } }`, ctx([]))).toBeNull();
    expect(key(`{ __typename }`)).toBeNull();
    expect(key(`{ __typename courses { nodes { id } } }`)).not.toBeNull();
    expect(key(`{ courses { nodes { id } } membershipPlans { id } }`)).toBeNull();
    expect(key(`{ ...R } fragment R on Query { courses { nodes { id } } }`)).toBeNull();
    expect(key(`{ ... on Query { courses { nodes { id } } } }`)).toBeNull();
    expect(key(`mutation { __typename }`)).toBeNull();
    expect(key(`query A { __typename } query B { __typename }`)).toBeNull();
  });
});
