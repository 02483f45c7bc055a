// Results of Admin API queries that read only the school's content (the course catalog), kept in the
// content cache beside the pages they are made of (lib/db/content-cache.ts).
//
// Why: a catalog integration asks the same `courses(first: 50)` again and again, and executing it
// is about 2 µs a course, 0.3 µs a field, most of what a request for 50 courses costs over one for
// 5 (docs/benchmarks.md, "Admin API"). The answer is a function of the school's content, the
// document, its variables and operation name, and the key's permission to read courses: nothing
// else reaches it. So it is made once per content version and served again until a write to any
// content table bumps the version; it is exactly as fresh as the course list it is made of.
//
// What keeps that exact:
//  - only a query whose root fields are all listed below (plain fields, no fragment at the root),
//    at least one of them content;
//  - a listed field qualifies only while every field reachable from it keeps the default resolver
//    (checked against the schema when the plugin is made), so a resolver added later that reads
//    anything else turns its root field off instead of being cached;
//  - the key's permission is checked on every request before a cached answer is used;
//  - only answers without errors are kept, frozen, and every request gets its own result object;
//  - the plugin is the innermost execute wrapper: rate limits, operation limits, idempotency and the
//    outage mapping run around a cached answer as around an execution.
import { getNamedType, getOperationAST, isObjectType, Kind, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { AdminOperation } from "../credentials/permissions";
import { contentSlot } from "../db/content-cache";
import type { AdminContext } from "./context";
import { allowed } from "./query-guards";

/** Root fields whose answer is made from content alone, and the permission each needs (none: `__typename`). */
const CONTENT_ROOT_FIELDS: ReadonlyMap<string, AdminOperation | null> = new Map<string, AdminOperation | null>([
  ["courses", "courses"],
  ["__typename", null],
]);

/** The listed root fields whose every reachable field keeps the default resolver in `schema`. */
export function contentRootFields(schema: GraphQLSchema): Map<string, AdminOperation | null> {
  const query = schema.getQueryType();
  const eligible = new Map<string, AdminOperation | null>();
  for (const [name, permission] of CONTENT_ROOT_FIELDS) {
    if (name === "__typename") {
      eligible.set(name, permission);
      continue;
    }
    const field = query?.getFields()[name];
    if (field && onlyDefaultResolvers(getNamedType(field.type), new Set())) eligible.set(name, permission);
  }
  return eligible;
}

function onlyDefaultResolvers(type: ReturnType<typeof getNamedType>, seen: Set<string>): boolean {
  if (!isObjectType(type) || seen.has(type.name)) return true;
  seen.add(type.name);
  return Object.values(type.getFields()).every((f) => f.resolve === undefined && onlyDefaultResolvers(getNamedType(f.type), seen));
}

// Ids of executed documents: a cached answer belongs to the parsed document that ran, whatever
// plugin may have changed it after parsing. Yoga hands a repeated text its parse cache's document.
const documentIds = new WeakMap<DocumentNode, number>();
let lastDocumentId = 0;

function documentId(document: DocumentNode): number {
  let id = documentIds.get(document);
  if (id === undefined) documentIds.set(document, (id = ++lastDocumentId));
  return id;
}

/**
 * The cache key of a request's answer, or null when the operation may read more than content or
 * the key lacks a permission it needs (then it executes, and answers the field's error).
 */
export function contentResultKey(
  eligible: ReadonlyMap<string, AdminOperation | null>,
  args: { document: DocumentNode; operationName?: string | null; variableValues?: unknown; contextValue: unknown },
): string | null {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation || operation.operation !== "query") return null;
  const ctx = args.contextValue as AdminContext;
  // `__typename` alone costs less to execute than to look up.
  let content = false;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || !eligible.has(selection.name.value)) return null;
    const permission = eligible.get(selection.name.value);
    if (permission && !allowed(ctx, permission)) return null;
    content ||= permission !== null;
  }
  if (!content) return null;
  const variables = args.variableValues === undefined || args.variableValues === null ? "" : JSON.stringify(args.variableValues);
  return ["admin-result", ctx.credential.schoolId, ctx.apiVersion, documentId(args.document), args.operationName ?? "", variables].join("\u0000");
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const counts = { served: 0, kept: 0 };

/** This process's cached answers served and answers kept since it started (tests, diagnostics). */
export function contentResultCounts(): { served: number; kept: number } {
  return { ...counts };
}

/** The plugin; list it before every other execute wrapper so it is the innermost. */
export function contentResultsPlugin(schema: GraphQLSchema): Plugin<AdminContext> {
  const eligible = contentRootFields(schema);
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const key = contentResultKey(eligible, args);
      if (key === null) return;
      setExecuteFn(async (execArgs) => {
        // The version cannot be read (an outage): execute, so the answer is exactly the uncached one.
        const slot = await contentSlot<ExecutionResult["data"]>(key).catch(() => null);
        if (!slot) return executeFn(execArgs);
        if (slot.hit !== undefined) {
          counts.served++;
          return { data: slot.hit };
        }
        const result = (await executeFn(execArgs)) as ExecutionResult;
        if (!(Symbol.asyncIterator in result) && !result.errors?.length && result.data) {
          const json = JSON.stringify(result.data);
          slot.put(deepFreeze(result.data), 2 * (json.length + key.length) + 256);
          counts.kept++;
        }
        return result;
      });
    },
  };
}
