// Plain requests and answers: what the OAuth JSON endpoints read of a request and what they answer,
// without the Fetch objects. A Fetch Request is a PlainRequest as it is, so Next's routes and the
// proxy call these endpoints through `toResponse`; the front (server/front.mjs) builds a
// PlainRequest straight from node:http and writes the answer itself, which saves building a
// Request, its body stream and a Response on every request (docs/decisions.md, "The OAuth front").

/** What an endpoint written on plain requests reads. A Fetch `Request` is one. */
export interface PlainRequest {
  readonly method: string;
  /** The absolute URL, as Next gives a route handler. */
  readonly url: string;
  readonly headers: Headers;
  /** Read through lib/http/body.ts, which stops at the endpoint's limit. */
  readonly body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | null;
}

/** A whole answer: every OAuth JSON answer is small and made at once, so it needs no stream. */
export interface PlainResponse {
  readonly status: number;
  /** Header names in lower case, each set once. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type PlainHandler = (request: PlainRequest) => Promise<PlainResponse>;

/** The Fetch Response of a plain answer, for Next's routes and the proxy. */
export function toResponse(answer: PlainResponse): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** A Fetch Response as a plain answer (the edge guard's refusals, made as Responses for every other route). */
export async function fromResponse(response: Response): Promise<PlainResponse> {
  return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
}
