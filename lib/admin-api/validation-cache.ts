// Validation once per literal shape (document-shape.ts), not once per document text.
//
// Yoga's validation cache is keyed on the parsed document, and its parse cache on the exact text, so
// a client inlining a fresh value in each request (the bench's createSubscription, an email in the
// document) paid full validation every time: 27 graphql-js rules and the operation limits' rules,
// about a third of the request's CPU (docs/benchmarks.md, "Admin API"). This validate function
// remembers which shapes validated with no error at all; a document of such a shape is then checked
// only by the rules that read string contents, on the document itself, and their errors (none, or
// theirs exactly) are the answer.
//
// Why that is exactly graphql's validate: each rule is either
//  - content-blind: what it reports depends on the tree, names and non-string literals, and on
//    string literals only through their equality (OverlappingFieldsCanBeMerged compares arguments
//    by [kind, value, block]); documents of one shape agree on all of that, so such a rule reports
//    nothing on a document whose shape it reported nothing on; or
//  - content-reading (ValuesOfCorrectType: a scalar's parseLiteral; our NUL rule): run again.
// The errors of a full validate are then the content-reading rules' errors in the same order
// (visitInParallel calls the rules in list order at each node), with the same 100-error cut.
// A rule in neither list (an added plugin, a graphql version not audited below) turns the cache off.
import {
  specifiedRules,
  validate,
  ValuesOfCorrectTypeRule,
  version as graphqlVersion,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import { BoundedMemo } from "./bounded-memo";
import { literalShape } from "./document-shape";

/** graphql versions whose specifiedRules were read for the classification above. */
export const AUDITED_GRAPHQL_VERSIONS: readonly string[] = ["16.15.0"];

const contentBlind = new WeakSet<ValidationRule>(
  AUDITED_GRAPHQL_VERSIONS.includes(graphqlVersion) ? specifiedRules.filter((rule) => rule !== ValuesOfCorrectTypeRule) : [],
);
const contentReading = new WeakSet<ValidationRule>([ValuesOfCorrectTypeRule]);

/** Declares a rule content-blind (see above); the rule's author vouches for it. */
export function markContentBlind(rule: ValidationRule): ValidationRule {
  contentBlind.add(rule);
  return rule;
}

/** Declares a rule that reads string literals' contents: it runs on every document. */
export function markContentReading(rule: ValidationRule): ValidationRule {
  contentReading.add(rule);
  return rule;
}

/** Shapes kept, and their total length in characters; the least recently used go first. */
export const MAX_VALID_SHAPES = 500;
export const MAX_VALID_SHAPE_CHARS = 2_000_000;

export type ValidateFn = (schema: GraphQLSchema, document: DocumentNode, rules?: readonly ValidationRule[], ...rest: unknown[]) => readonly GraphQLError[];

export interface ShapeCachedValidate extends ValidateFn {
  /** Counters for tests: answers from a known shape, and full validations. */
  readonly stats: { hits: number; full: number };
}

/**
 * A validate function with the shape cache in front of `base` (graphql's validate). Only the plain
 * call (schema, document, rules) is cached; any other argument, a schema or rule list other than the
 * first one seen, or an unclassified rule goes straight to `base`.
 */
export function shapeCachedValidate(base: ValidateFn = validate as ValidateFn): ShapeCachedValidate {
  let schemaSeen: GraphQLSchema | undefined;
  let rulesSeen: readonly ValidationRule[] | undefined;
  let readingRules: readonly ValidationRule[] = [];
  const valid = new BoundedMemo<true>({ maxEntries: MAX_VALID_SHAPES, maxChars: MAX_VALID_SHAPE_CHARS });
  const stats = { hits: 0, full: 0 };

  function cacheable(schema: GraphQLSchema, rules: readonly ValidationRule[] | undefined, rest: unknown[]): rules is readonly ValidationRule[] {
    if (!rules || rest.some((arg) => arg !== undefined)) return false;
    if (rulesSeen === undefined) {
      if (!rules.every((rule) => contentBlind.has(rule) || contentReading.has(rule))) return false;
      schemaSeen = schema;
      rulesSeen = [...rules];
      readingRules = rules.filter((rule) => contentReading.has(rule));
    }
    return schema === schemaSeen && rules.length === rulesSeen.length && rules.every((rule, i) => rule === rulesSeen![i]);
  }

  const cached = ((schema, document, rules, ...rest) => {
    if (!cacheable(schema, rules, rest)) {
      stats.full++;
      return base(schema, document, rules, ...rest);
    }
    const shape = literalShape(document);
    if (shape !== undefined && valid.get(shape)) {
      stats.hits++;
      return readingRules.length ? base(schema, document, readingRules) : [];
    }
    stats.full++;
    const errors = base(schema, document, rules);
    if (errors.length === 0 && shape !== undefined) valid.set(shape, true);
    return errors;
  }) as ShapeCachedValidate;
  Object.defineProperty(cached, "stats", { value: stats });
  return cached;
}

/**
 * The yoga plugin: validation through shapeCachedValidate in front of the validate function yoga
 * would use (graphql's, of the instance that built the schema). Listed last, so its validate
 * function is the one used; it checks the final rule list on every call. Yoga's own per-document
 * cache still answers a repeated text before this runs.
 */
export function shapeValidationCachePlugin<TContext extends Record<string, unknown>>(): Plugin<TContext> {
  const byBase = new WeakMap<ValidateFn, ShapeCachedValidate>();
  return {
    onValidate({ validateFn, setValidationFn }) {
      const base = validateFn as unknown as ValidateFn;
      let cached = byBase.get(base);
      if (!cached) byBase.set(base, (cached = shapeCachedValidate(base)));
      setValidationFn(cached as never);
    },
  };
}
