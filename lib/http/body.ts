// Request bodies read with a limit while they stream: a body larger than the limit is refused as
// soon as the limit is passed (or at once from Content-Length), without reading the rest, so a
// client cannot make the server buffer megabytes it will refuse anyway. Text must be valid UTF-8:
// invalid bytes are refused rather than silently replaced. Each transport maps these errors to its
// own 4xx format (413 for size, 400 for encoding).

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

/** The body's bytes, at most `limitBytes`; BodyTooLargeError as soon as it is known to be larger. */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  // The body is left unread: the server answers and closes the connection.
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limitBytes) throw new BodyTooLargeError(limitBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
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
export async function readBodyText(request: Request, limitBytes: number): Promise<string> {
  const bytes = await readBodyBytes(request, limitBytes);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new BodyEncodingError();
  }
}

/** Whether a string holds U+0000, which no field of ours accepts and Postgres text cannot store. */
export const hasNul = (s: string): boolean => s.includes("\u0000");

/** Whether any string in a JSON value (keys included) holds U+0000. Iterative: no deep recursion. */
export function jsonHasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (hasNul(v)) return true;
    } else if (Array.isArray(v)) {
      stack.push(...v);
    } else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (hasNul(k)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}
