// Every response the integration suite's app server sends for an operation /openapi.json documents
// is checked against the document (tests/helpers/app-server.ts): its status must be declared (or
// covered by `default`), a body must be of a declared media type, and a JSON body valid against its
// schema, whose response shapes are closed (additionalProperties false). A response that is not
// becomes a 500 naming the difference, so whichever test saw it fails there.
import Ajv, { type ValidateFunction } from "ajv";
import { buildOpenApi } from "@/lib/storefront/openapi";

type Media = { schema?: Record<string, unknown> };
type Operation = { responses: Record<string, { content?: Record<string, Media> }> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

let loaded: { doc: Doc; templates: Array<{ path: string; pattern: RegExp }> } | undefined;

function document() {
  if (!loaded) {
    // Schemas do not depend on the origin or the school: one document serves every request.
    const doc = buildOpenApi({ origin: "http://conformance.test", schoolName: "Conformance" }) as unknown as Doc;
    const templates = Object.keys(doc.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
    }));
    loaded = { doc, templates };
  }
  return loaded;
}

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new WeakMap<object, ValidateFunction>();

function validatorOf(doc: Doc, schema: Record<string, unknown>): ValidateFunction {
  let check = validators.get(schema);
  // `#/components/...` refs resolve against the document's own components.
  if (!check) validators.set(schema, (check = ajv.compile({ ...schema, components: doc.components })));
  return check;
}

/** The operation the document declares for this method and path, if any. */
export function documentedOperation(method: string, pathname: string): Operation | undefined {
  const { doc, templates } = document();
  const exact = doc.paths[pathname];
  const item = exact ?? doc.paths[templates.find((t) => t.pattern.test(pathname))?.path ?? ""];
  return item?.[method.toLowerCase()];
}

const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

/** How a response differs from what the document declares for it, or null when it conforms. */
export function openApiViolation(operation: Operation, r: { status: number; contentType: string | null; body: string }): string | null {
  const declared = operation.responses[String(r.status)] ?? operation.responses.default;
  if (!declared) return `status ${r.status} is not declared (declared: ${Object.keys(operation.responses).join(", ")})`;
  if (!r.body) return null;
  if (!declared.content) return `a ${r.status} with a body the document does not describe`;
  const type = (r.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  const media = declared.content[type];
  if (!media) return `${r.status} sent as ${type || "no content type"} (declared: ${Object.keys(declared.content).join(", ")})`;
  if (!isJson(type) || !media.schema) return null;
  let value: unknown;
  try {
    value = JSON.parse(r.body);
  } catch {
    return `${r.status} ${type} body is not JSON`;
  }
  const check = validatorOf(document().doc, media.schema);
  return check(value) ? null : `${r.status} body does not match its schema: ${ajv.errorsText(check.errors)} in ${r.body.slice(0, 500)}`;
}
