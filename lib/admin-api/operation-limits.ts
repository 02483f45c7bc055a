// Operation limits of /admin/graphql, checked after parsing and before execution (docs/decisions.md
// "Issue 11" lists each number and why). An operation over a limit is answered 400 in a few
// milliseconds with a GraphQL error whose code names the limit; nothing of it executes, and it is
// not charged to the rate limits (it never reaches them). GraphQL Armor enforces tokens, depth,
// aliases, directives and cost; the two pieces Armor cannot do are here: a nesting bound checked
// by the (iterative) lexer before the (recursive) parser runs, so no input can overflow the stack,
// and page sizes given by variables or left to the default, which Armor's cost rule would count as 1.
import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { MaxTokensParserWLexer } from "@escape.tech/graphql-armor-max-tokens";
import {
  Kind,
  Lexer,
  Source,
  TokenKind,
  validate,
  visit,
  type ArgumentNode,
  type DocumentNode,
  type GraphQLError,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { hasNul } from "../http/body";
import { BoundedMemo } from "./bounded-memo";
import { literalShape } from "./document-shape";
import { markContentBlind, markContentReading } from "./validation-cache";

export const OPERATION_LIMITS = {
  /** Lexical tokens per document: a 50-mutation batch with full selections is about 5,000. */
  maxTokens: 10_000,
  /** Brackets ({ [ () open at once; far above any real operation, far below a stack overflow. */
  maxNesting: 48,
  /** Field depth; the deepest real selection (subscriptions → nodes → plan → field) is 4. */
  maxDepth: 10,
  /** Aliases per operation: the spec's batches go up to 50 aliased mutations. */
  maxAliases: 64,
  maxDirectives: 20,
  /** Calculated cost (below): a page of 100 subscriptions with every field ≈ 11,000. */
  maxCost: 20_000,
  /** What Armor's cost rule multiplies by for connection fields: the page size. */
  connectionFields: {
    subscriptions: { defaultFirst: 50, maxFirst: 100 },
    courses: { defaultFirst: 50, maxFirst: 100 },
    webhookDeliveries: { defaultFirst: 50, maxFirst: 100 },
    members: { defaultFirst: 50, maxFirst: 100 },
    enrollments: { defaultFirst: 50, maxFirst: 100 },
    payments: { defaultFirst: 50, maxFirst: 100 },
    auditEvents: { defaultFirst: 50, maxFirst: 100 },
  } as Record<
    string,
    { defaultFirst: number; maxFirst: number }
  >,
} as const;

export type OperationLimitCode =
  | "QUERY_TOO_LARGE"
  | "QUERY_TOO_NESTED"
  | "QUERY_TOO_DEEP"
  | "TOO_MANY_ALIASES"
  | "TOO_MANY_DIRECTIVES"
  | "QUERY_TOO_COMPLEX";

export function operationLimitError(code: OperationLimitCode, message: string, limit: number): GraphQLError {
  // spec: false — yoga would otherwise answer 200 to application/json clients (as for validation errors).
  return createGraphQLError(message, { extensions: { code, limit, http: { status: 400, spec: false } } });
}

/**
 * Refuses a document with more tokens or deeper bracket nesting than the limits, lexing at most
 * maxTokens + 1 tokens (the lexer is iterative; the parser that follows is recursive). A lexical
 * error is left to the parser to report as the syntax error it is.
 */
export function assertQuerySize(source: string): void {
  if (WITHIN_LIMITS.get(source)) return;
  lexWithinLimits(source);
  if (source.length <= QUERY_SIZE_MEMO.maxEntryChars) WITHIN_LIMITS.set(source, true);
}

/**
 * Documents that passed the check, so the same query text (a client's or the bench's one operation,
 * sent again and again, which yoga's parse cache holds parsed) is not lexed again on every request:
 * the check depends on the text alone. Bounded by count and by total length; short texts only.
 */
export const QUERY_SIZE_MEMO = { maxEntries: 1000, maxChars: 1024 * 1024, maxEntryChars: 16 * 1024 } as const;
const WITHIN_LIMITS = new BoundedMemo<true>(QUERY_SIZE_MEMO);

/** The check itself, without the memo (the differential test compares both). */
export function lexWithinLimits(source: string): void {
  const lexer = new Lexer(new Source(source));
  let depth = 0;
  let tokens = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > OPERATION_LIMITS.maxTokens) {
        throw operationLimitError("QUERY_TOO_LARGE", `Operation has more than ${OPERATION_LIMITS.maxTokens} tokens.`, OPERATION_LIMITS.maxTokens);
      }
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L) {
        if (++depth > OPERATION_LIMITS.maxNesting) {
          throw operationLimitError("QUERY_TOO_NESTED", `Operation nests more than ${OPERATION_LIMITS.maxNesting} levels of brackets.`, OPERATION_LIMITS.maxNesting);
        }
      } else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) {
        depth--;
      }
    }
  } catch (err) {
    if ((err as GraphQLError).extensions?.limit !== undefined) throw err;
  }
}

/** graphql's parse with the nesting bound and Armor's token limit. */
export function parseWithinLimits(source: string | Source, options?: ParseOptions): DocumentNode {
  const body = typeof source === "string" ? source : source.body;
  assertQuerySize(body);
  const tooLarge = () => {
    throw operationLimitError("QUERY_TOO_LARGE", `Operation has more than ${OPERATION_LIMITS.maxTokens} tokens.`, OPERATION_LIMITS.maxTokens);
  };
  // The armor parser's options type is narrower than what it accepts (its own @ts-expect-error).
  const parser = new MaxTokensParserWLexer(body, {
    ...options,
    n: OPERATION_LIMITS.maxTokens,
    propagateOnRejection: false,
    onReject: [tooLarge],
  } as ConstructorParameters<typeof MaxTokensParserWLexer>[1]);
  try {
    return parser.parseDocument();
  } catch (err) {
    throw asOurGraphQLError(err);
  }
}

/** The GraphQLError class yoga recognises (the copy of graphql its error factory uses). */
export const YOGA_GRAPHQL_ERROR = createGraphQLError("").constructor as typeof GraphQLError;

/**
 * Armor's parser reaches graphql through a deep import (`graphql/language/parser`). Where that
 * resolves to another copy of graphql than yoga's (Next's production bundles did, before graphql
 * became a server external package in next.config.mjs; vite's test transform does), its syntax
 * errors are not instances of yoga's GraphQLError, and yoga masked them as "Unexpected error."
 * (500) instead of answering 400. The same error, made by yoga's factory, whatever the bundling.
 */
export function asOurGraphQLError(err: unknown): unknown {
  if (err instanceof YOGA_GRAPHQL_ERROR || !(err instanceof Error) || err.name !== "GraphQLError") return err;
  const e = err as GraphQLError;
  return createGraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: { ...e.extensions } });
}

/** Connection names that are also plain lists on a type (see withWorstCasePageSizes). */
const ROOT_ONLY_CONNECTIONS = new Set(["payments"]);

/**
 * The document as the cost rule should see it: on connection fields, a `first` given by a variable
 * counts as the largest page and a missing `first` as the default page, so neither hides the size.
 */
export function withWorstCasePageSizes(document: DocumentNode): DocumentNode {
  return visit(document, {
    Field(node, _key, _parent, _path, ancestors) {
      const connection = OPERATION_LIMITS.connectionFields[node.name.value];
      if (!connection || !Object.hasOwn(OPERATION_LIMITS.connectionFields, node.name.value)) return undefined;
      // Subscription.payments is a plain list of one subscription's payments, not the paged
      // Query.payments of the same name: only the root field is a connection.
      if (ROOT_ONLY_CONNECTIONS.has(node.name.value) && ancestors.some((a) => !Array.isArray(a) && (a as { kind?: string }).kind === Kind.FIELD)) return undefined;
      const first = node.arguments?.find((a) => a.name.value === "first");
      if (first?.value.kind === Kind.INT) return undefined;
      const size = first ? connection.maxFirst : connection.defaultFirst;
      const arg: ArgumentNode = { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: "first" }, value: { kind: Kind.INT, value: String(size) } };
      return { ...node, arguments: [...(node.arguments ?? []).filter((a) => a !== first), arg] };
    },
  });
}

const COST_OPTIONS = { maxCost: OPERATION_LIMITS.maxCost, objectCost: 2, scalarCost: 1, depthCostFactor: 1.5, ignoreIntrospection: true };

/**
 * The operation's calculated cost: Armor's cost rule on the worst-case page sizes. `validateFn` is
 * the validate function of the GraphQL instance that built the schema.
 */
export function operationCost(validateFn: typeof validate, schema: Parameters<typeof validate>[0], document: DocumentNode): number {
  let cost = 0;
  const record = (_: ValidationContext | null, details: { n: number }) => {
    cost += details.n;
  };
  validateFn(schema, withWorstCasePageSizes(document), [costLimitRule({ ...COST_OPTIONS, maxCost: Number.MAX_SAFE_INTEGER, onAccept: [record] })]);
  return cost;
}

/** A validation rule refusing string literals that hold U+0000 (Postgres text cannot store it). */
const noNulStrings = markContentReading(function noNulStrings(context: ValidationContext) {
  return {
    StringValue(node: { value: string }) {
      if (hasNul(node.value)) context.reportError(nulError());
    },
  };
});

const nulError = () =>
  createGraphQLError("String values must not contain the NUL character (U+0000).", { extensions: { code: "BAD_USER_INPUT", http: { status: 400, spec: false } } });

/** Shapes whose cost is kept, and their total length in characters. */
const COST_SHAPE_MEMO = { maxEntries: 500, maxChars: 2_000_000 } as const;

export interface OperationCostNote {
  operationCost?: number;
}

/** The cost as reported in `extensions.cost`, next to the limiter state. */
export const costExtension = (requested: number) => ({ requestedQueryCost: Math.ceil(requested), maximumQueryCost: OPERATION_LIMITS.maxCost });

/**
 * The validation rules of the limits: Armor's depth, alias and directive limits (each reporting a
 * 400 error that names its limit) and the NUL rule. Armor's rules count fields, aliases, fragments
 * and directives by name and never read a literal (@escape.tech/graphql-armor-max-*): content-blind
 * for the shape validation cache (validation-cache.ts); the NUL rule reads string contents.
 */
export function operationLimitRules(): ValidationRule[] {
  const reject = (code: OperationLimitCode, message: (n: number) => string, n: number) => (context: ValidationContext | null) => {
    context?.reportError(operationLimitError(code, message(n), n));
  };
  const L = OPERATION_LIMITS;
  return [
    ...[
      maxDepthRule({ n: L.maxDepth, propagateOnRejection: false, onReject: [reject("QUERY_TOO_DEEP", (n) => `Operation is deeper than ${n} levels.`, L.maxDepth)] }),
      maxAliasesRule({ n: L.maxAliases, allowList: [], propagateOnRejection: false, onReject: [reject("TOO_MANY_ALIASES", (n) => `Operation uses more than ${n} aliases.`, L.maxAliases)] }),
      maxDirectivesRule({
        n: L.maxDirectives,
        propagateOnRejection: false,
        onReject: [reject("TOO_MANY_DIRECTIVES", (n) => `Operation uses more than ${n} directives.`, L.maxDirectives)],
      }),
    ].map((rule) => markContentBlind(rule as ValidationRule)),
    noNulStrings,
  ];
}

/**
 * The yoga plugin: parser with limits (request-shape.ts checks size and nesting before yoga runs,
 * so each is a 400 whatever the client's Accept; yoga would answer parse errors 200 to
 * application/json clients), the Armor validation rules (each reporting a 400 error that
 * names its limit), the cost on the response's `extensions.cost`, and NUL refused in string
 * literals (request-shape.ts refuses it in variables).
 */
export function operationLimitsPlugin<TContext extends Record<string, unknown>>(): Plugin<TContext> {
  const L = OPERATION_LIMITS;
  const rules = operationLimitRules();
  const costs = new WeakMap<object, number>();
  // The cost depends on the document alone, and yoga's parse cache hands every request with the same
  // query text the same DocumentNode: computing it once per document, not per request, saves a
  // validation pass over the document (a visit and Armor's rule) on every request.
  const costOfDocument = new WeakMap<DocumentNode, number>();
  // Nor does it depend on string literals (Armor's cost rule and withWorstCasePageSizes read names,
  // selections and the kind and value of int arguments only), so a new text of a known literal
  // shape (document-shape.ts) costs what that shape cost.
  const costOfShape = new BoundedMemo<number>(COST_SHAPE_MEMO);
  return {
    onParse({ setParseFn }) {
      setParseFn(parseWithinLimits);
    },
    onValidate({ addValidationRule, params, context, setResult, validateFn }) {
      for (const rule of rules) addValidationRule(rule);
      let cost = costOfDocument.get(params.documentAST);
      if (cost === undefined) {
        const shape = literalShape(params.documentAST);
        cost = shape === undefined ? undefined : costOfShape.get(shape);
        if (cost === undefined) {
          cost = operationCost(validateFn as typeof validate, params.schema, params.documentAST);
          if (shape !== undefined) costOfShape.set(shape, cost);
        }
        costOfDocument.set(params.documentAST, cost);
      }
      if (cost > L.maxCost) {
        setResult([
          operationLimitError(
            "QUERY_TOO_COMPLEX",
            `Operation cost ${Math.ceil(cost)} exceeds the limit of ${L.maxCost}: request smaller pages (first) or fewer fields and aliases.`,
            L.maxCost,
          ),
        ]);
        return;
      }
      costs.set(context, cost);
    },
    onExecute({ args }) {
      const cost = costs.get(args.contextValue as object);
      if (cost === undefined) return undefined;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult({ ...result, extensions: { ...result.extensions, cost: costExtension(cost) } });
        },
      };
    },
  };
}
