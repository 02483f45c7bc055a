// Request bodies read with a limit while they stream: a body larger than the limit is refused as
// soon as the limit is passed (or at once from Content-Length), without reading the rest, so a
// client cannot make the server buffer megabytes it will refuse anyway. Text must be valid UTF-8:
// invalid bytes are refused rather than silently replaced. Each transport maps these errors to its
// own 4xx format (413 for size, 400 for encoding).

/**
 * Headers of an answer sent while the client may still be sending a body we refused (413): the
 * connection closes after the answer instead of being kept alive, so the server stops reading
 * there; kept alive, Node reads and discards the rest of a 30 MB body before the next request.
 */
export const REFUSED_BODY_HEADERS: Readonly<Record<string, string>> = { connection: "close" };

export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly limitBytes: number) {
    super(`The request body is larger than ${formatBytes(limitBytes)}.`);
  }
}

export class BodyEncodingError extends Error {
  override name = "BodyEncodingError";
  constructor() {
    super("The request body is not valid UTF-8 text.");
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** What a body is read from: a Fetch Request, or the front's plain request (lib/http/plain.ts). */
export interface BodySource {
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

/** The body's bytes, at most `limitBytes`; BodyTooLargeError as soon as it is known to be larger. */
export async function readBodyBytes(request: BodySource, limitBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  // The body is left unread: the server answers and closes the connection.
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (!request.body) return new Uint8Array(0);
  // Node's web streams are async iterable too; leaving the loop early cancels the stream (or, for
  // the front's node:http body, stops reading it) without reading the rest.
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of request.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limitBytes) throw new BodyTooLargeError(limitBytes);
    chunks.push(chunk);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The body as UTF-8 text, at most `limitBytes`; BodyTooLargeError or BodyEncodingError otherwise. */
export async function readBodyText(request: BodySource, limitBytes: number): Promise<string> {
  const bytes = await readBodyBytes(request, limitBytes);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BodyEncodingError();
  }
}

/** Whether a string holds U+0000, which no field of ours accepts and Postgres text cannot store. */
export const hasNul = (s: string): boolean => s.includes("\u0000");

/**
 * How deep request JSON may nest (an object or array is one level). Our deepest real input is a
 * GraphQL input object inside `variables` (4 levels) or a tool's arguments inside a JSON-RPC
 * message (4); 64 leaves room for any client's extensions. The bound exists because code after the
 * readers recurses over the value (JSON.stringify for idempotency fingerprints and stored copies,
 * yoga's and the MCP SDK's schema checks): 100,000 nested arrays fit in 200 KB and overflowed the
 * stack (issue 29, item 17).
 */
export const MAX_JSON_DEPTH = 64;

/** The first thing wrong with parsed request JSON: a U+0000 in any string (keys included), or nesting past MAX_JSON_DEPTH. */
export type JsonProblem = "nul" | "too_deep";

/**
 * What is wrong with a parsed request JSON value, or undefined. Iterative with an explicit stack of
 * (value, depth), and never spreads a container into arguments (`push(...array)` with 500,000
 * elements overflowed the stack): any width and any depth is safe to check.
 */
export function jsonProblem(value: unknown, options: { allowNul?: boolean } = {}): JsonProblem | undefined {
  const checkNul = !options.allowNul;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v === "string") {
      if (checkNul && hasNul(v)) return "nul";
    } else if (v !== null && typeof v === "object") {
      if (depth >= MAX_JSON_DEPTH) return "too_deep";
      if (Array.isArray(v)) {
        for (const x of v) {
          values.push(x);
          depths.push(depth + 1);
        }
      } else {
        for (const k in v) {
          if (checkNul && hasNul(k)) return "nul";
          values.push((v as Record<string, unknown>)[k]);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}

/** The message of a JsonProblem, for each transport's own error format. */
export function jsonProblemMessage(problem: JsonProblem): string {
  return problem === "nul" ? "String values must not contain the NUL character (U+0000)." : `JSON must not nest deeper than ${MAX_JSON_DEPTH} levels.`;
}
