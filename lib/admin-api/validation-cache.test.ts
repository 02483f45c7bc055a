// The shape validation cache (validation-cache.ts) must answer exactly what graphql's validate
// answers. Differential and property-based: sequences of documents built from templates whose
// string literals vary (equal and different contents, block strings, NUL, quotes, a custom scalar
// that reads the content, enums, ints, lists, defaults, descriptions, conflicting aliases) go
// through one cached validate and through plain validate; errors (message, locations, extensions)
// must match document by document, while the cache answers most of them from a known shape.
import fc from "fast-check";
import { buildSchema, GraphQLError, Kind, parse, specifiedRules, validate, version, type GraphQLScalarType, type ValidationRule } from "graphql";
import { describe, expect, it } from "vitest";
import { literalShape } from "./document-shape";
import { operationCost, operationLimitRules } from "./operation-limits";
import { adminSchema } from "./schema";
import { AUDITED_GRAPHQL_VERSIONS, MAX_VALID_SHAPES, shapeCachedValidate } from "./validation-cache";

const RULES: ValidationRule[] = [...specifiedRules, ...operationLimitRules()];

// A schema with what the admin schema lacks: a scalar whose parseLiteral reads the content, an enum,
// ints, lists and booleans in argument positions.
const testSchema = buildSchema(`
  scalar Email
  enum Color { RED GREEN }
  input Filter { email: Email, color: Color, tags: [String!], limit: Int }
  type Item { id: ID!, name(prefix: String): String, child(id: String): Item }
  type Query {
    item(id: String!): Item
    check(email: Email!): Boolean
    paint(color: Color): Boolean
    find(filter: Filter, tags: [String!], first: Int, flag: Boolean): [Item]
  }
`);
const email = testSchema.getType("Email") as GraphQLScalarType;
email.parseLiteral = (node) => {
  if (node.kind !== Kind.STRING || !node.value.includes("@")) throw new GraphQLError(`Not an email: ${JSON.stringify(node.kind === Kind.STRING ? node.value : node.kind)}`);
  return node.value;
};

// § marks a string literal slot.
const templates: { schema: typeof adminSchema; text: string }[] = [
  { schema: adminSchema, text: `mutation BenchCreate { createSubscription(input: { email: §, name: §, planId: § }) { errors subscription { id state } } }` },
  { schema: adminSchema, text: `{ a: subscription(id: §) { id } a: subscription(id: §) { id } }` },
  { schema: adminSchema, text: `{ courses(first: §) { nodes { id } } }` },
  { schema: adminSchema, text: `{ __typename @include(if: §) }` },
  { schema: adminSchema, text: `query Q($e: String = §) { subscriptions(email: $e, state: §) { nodes { id } } }` },
  { schema: adminSchema, text: `query Q($n: Int = §) { courses(first: $n) { nodes { id } } }` },
  { schema: adminSchema, text: `§ query Described { subscription(id: §) { id } }` },
  { schema: adminSchema, text: `{ ...F } fragment F on Query { subscription(id: §) { id } x: subscription(id: §) { id } }` },
  { schema: adminSchema, text: `{ nope(id: §) }` },
  { schema: testSchema, text: `{ check(email: §) }` },
  { schema: testSchema, text: `{ paint(color: §) }` },
  { schema: testSchema, text: `{ find(filter: { email: §, color: RED, tags: [§, §], limit: 3 }, tags: §) { id } }` },
  { schema: testSchema, text: `{ find(first: §, flag: §) { id } }` },
  { schema: testSchema, text: `{ item(id: §) { n: name(prefix: §) n: name(prefix: §) child(id: §) { id } } }` },
  { schema: testSchema, text: `{ item(id: §) { name(prefix: §) } item(id: §) { name(prefix: §) } }` },
  { schema: testSchema, text: `query ($e: Email = §, $c: Color = §) { check(email: $e) paint(color: $c) }` },
];

const contents = fc.oneof(
  fc.constantFrom("a@b.test", "a@b.test", "plain", "", "RED", "12", "true", "with \"quotes\" and \\ backslash", "nul\u0000here", "line\nbreak", "ünïcødé ☃", "a@b.test "),
  fc.string({ maxLength: 6 }),
);
const literal = fc.record({ text: contents, block: fc.constantFrom(false, false, false, true) }).map(({ text, block }) =>
  // A block string cannot hold """ or end in a quote or backslash unescaped, nor keep \r and leading
  // indentation as written; those fall back to a quoted string, which is still a valid document.
  block && !/"""|["\\\r]$|[\r\u0000]/.test(text) && text.trim() === text && !text.includes("\n") ? `"""${text}"""` : JSON.stringify(text),
);
const fill = (template: number, literals: string[]) => {
  let i = 0;
  return { schema: templates[template]!.schema, text: templates[template]!.text.replace(/§/g, () => literals[i++]!) };
};
// A few templates per run, each filled several times, interleaved: most documents share a shape
// with an earlier one, as a client inlining fresh values does.
const documents = fc
  .array(
    fc.record({
      template: fc.integer({ min: 0, max: templates.length - 1 }),
      fills: fc.array(fc.array(literal, { minLength: 6, maxLength: 6 }), { minLength: 2, maxLength: 8 }),
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((groups) => {
    const docs: { schema: typeof adminSchema; text: string }[] = [];
    for (let round = 0; groups.some((g) => round < g.fills.length); round++) {
      for (const g of groups) if (round < g.fills.length) docs.push(fill(g.template, g.fills[round]!));
    }
    return docs;
  });

const asJson = (errors: readonly GraphQLError[]) => errors.map((e) => ({ ...e.toJSON(), extensions: e.extensions }));

describe("shape validation cache", () => {
  it("answers every document exactly as graphql's validate does", () => {
    let hits = 0;
    let refusedOnHit = 0;
    fc.assert(
      fc.property(documents, (docs) => {
        const cached = shapeCachedValidate();
        for (const { schema, text } of docs) {
          // Each call gets its own parse, as a new request text would.
          const before = cached.stats.hits;
          const answer = asJson(cached(schema, parse(text), RULES));
          expect(answer).toEqual(asJson(validate(schema, parse(text), RULES)));
          if (cached.stats.hits > before && answer.length > 0) refusedOnHit++;
        }
        hits += cached.stats.hits;
      }),
      { numRuns: 150 },
    );
    // The cache was exercised, also where the content-reading rules refuse a known shape.
    expect(hits).toBeGreaterThan(60);
    expect(refusedOnHit).toBeGreaterThan(0);
  }, 120_000);

  it("documents of one shape have one operation cost (operation-limits.ts keeps it per shape)", () => {
    fc.assert(
      fc.property(documents, (docs) => {
        const costs = new Map<string, number>();
        for (const { schema, text } of docs) {
          const doc = parse(text);
          const shape = literalShape(doc)!;
          const cost = operationCost(validate, schema, doc);
          expect(costs.get(shape) ?? cost).toBe(cost);
          costs.set(shape, cost);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("answers from the shape for the bench's createSubscription with a fresh email, and still refuses NUL", () => {
    const cached = shapeCachedValidate();
    const doc = (email: string) =>
      parse(`mutation BenchCreate { createSubscription(input: { email: ${JSON.stringify(email)}, name: "N", planId: "p" }) { errors subscription { id state } } }`);
    expect(cached(adminSchema, doc("one@x.test"), RULES)).toEqual([]);
    expect(cached(adminSchema, doc("two@x.test"), RULES)).toEqual([]);
    expect(cached.stats).toEqual({ hits: 1, full: 1 });
    const nul = cached(adminSchema, doc("a\u0000b@x.test"), RULES);
    expect(nul.map((e) => e.message)).toEqual(["String values must not contain the NUL character (U+0000)."]);
    expect(cached.stats.hits).toBe(2);
  });

  it("does not reuse a shape across schemas, rule lists or extra arguments, nor with a rule it cannot classify", () => {
    const text = `{ item(id: "x") { id } }`;
    const own: ValidationRule = () => ({});
    const unclassified = shapeCachedValidate();
    unclassified(testSchema, parse(text), [...RULES, own]);
    unclassified(testSchema, parse(text), [...RULES, own]);
    expect(unclassified.stats).toEqual({ hits: 0, full: 2 });

    const cached = shapeCachedValidate();
    cached(testSchema, parse(text), RULES);
    cached(adminSchema, parse(text), RULES); // another schema: straight to validate
    cached(testSchema, parse(text), RULES.slice(1)); // another rule list
    cached(testSchema, parse(text), RULES, { maxErrors: 1 }); // options
    expect(cached.stats).toEqual({ hits: 0, full: 4 });
    expect(cached(testSchema, parse(text), RULES)).toEqual([]);
    expect(cached.stats.hits).toBe(1);
  });

  it("keeps at most MAX_VALID_SHAPES shapes, the least recently used dropped first", () => {
    const cached = shapeCachedValidate();
    const doc = (i: number, id = "x") => parse(`{ item(id: ${JSON.stringify(id)}) { a${i}: id } }`);
    cached(testSchema, doc(0), RULES);
    for (let i = 1; i <= MAX_VALID_SHAPES; i++) {
      cached(testSchema, doc(0, `y${i}`), RULES); // keeps shape 0 the most recently used
      cached(testSchema, doc(i), RULES);
    }
    const before = cached.stats.hits;
    cached(testSchema, doc(0, "z"), RULES);
    cached(testSchema, doc(MAX_VALID_SHAPES), RULES);
    expect(cached.stats.hits).toBe(before + 2);
    cached(testSchema, doc(1), RULES); // the oldest: dropped
    expect(cached.stats.hits).toBe(before + 2);
  });

  it("was audited against the installed graphql (re-read the rules before adding a version)", () => {
    expect(AUDITED_GRAPHQL_VERSIONS).toContain(version);
  });
});

describe("literal shape", () => {
  const shape = (text: string) => literalShape(parse(text));
  it("is the same for documents differing only in string contents with the same equalities", () => {
    expect(shape(`{ a(x: "1", y: "2") }`)).toBe(shape(`{ a(x: "p", y: "q") }`));
    expect(shape(`{ a(x: "1", y: "1") }`)).toBe(shape(`{ a(x: "p", y: "p") }`));
    expect(shape(`{ a(x: "1") } # a comment`)).toBe(shape(`{ a(x: "2") }`));
  });
  it("differs for another equality pattern, block flag, name, alias or non-string literal", () => {
    const base = shape(`{ a(x: "1", y: "2") }`);
    for (const other of [
      `{ a(x: "1", y: "1") }`,
      `{ a(x: """1""", y: "2") }`,
      `{ b(x: "1", y: "2") }`,
      `{ c: a(x: "1", y: "2") }`,
      `{ a(x: "1", z: "2") }`,
      `{ a(x: 1, y: "2") }`,
      `{ a(x: RED, y: "2") }`,
      `{ a(x: ["1"], y: "2") }`,
      `{ a(y: "2", x: "1") }`,
    ]) {
      expect(shape(other), other).not.toBe(base);
    }
    expect(shape(`{ a(x: 1) }`)).not.toBe(shape(`{ a(x: 2) }`));
    expect(shape(`{ a(x: 1.5) }`)).not.toBe(shape(`{ a(x: 15) }`));
  });
});
