// Accept negotiation between a page's HTML and its markdown twin (RFC 9110 12.5.1), parsed by
// the `negotiator` package: q-values (q=0 refuses a type), case-insensitive types, wildcards less
// specific than explicit types, and ties broken by the order the client listed them.
import Negotiator from "negotiator";

export type Representation = "html" | "markdown";

// HTML first: when both are equally acceptable through wildcards only ("*/*", "text/*", no
// Accept) the page stays HTML.
const AVAILABLE = ["text/html", "text/markdown"] as const;

/** RFC 9110 12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ). */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The Accept header as negotiator should read it: media-type parameters other than q (charset,
 * variant, …) do not change which type is meant, so they are dropped; a range whose q is not an
 * RFC 9110 qvalue (`q=1.5`, `q=1.001`, `q=abc`, `q=-1`) is dropped whole, since negotiator would
 * parse `1.5` as a weight above every valid one and let a malformed range win.
 */
function normalizedAccept(accept: string): string {
  const ranges: string[] = [];
  for (const range of accept.split(",")) {
    const [type, ...params] = range.split(";");
    if (!type?.trim()) continue;
    const q = params.map((p) => p.replace(/\s+/g, "")).find((p) => /^q=/i.test(p));
    if (q === undefined) ranges.push(type.trim());
    else if (QVALUE.test(q.slice(2))) ranges.push(`${type.trim()};q=${q.slice(2)}`);
  }
  return ranges.join(", ");
}

/**
 * Which representation a page request asks for. Anything that does not prefer markdown gets HTML,
 * including `application/json` and headers accepting neither type (the page is the default
 * representation; there is no 406).
 */
export function preferredRepresentation(accept: string | null | undefined): Representation {
  if (!accept || !accept.trim()) return "html";
  const preferred = new Negotiator({ headers: { accept: normalizedAccept(accept) } }).mediaTypes([...AVAILABLE]);
  return preferred[0] === "text/markdown" ? "markdown" : "html";
}
