// Accept negotiation between a page's HTML and its markdown twin (RFC 9110 12.5.1), parsed by
// the `negotiator` package: q-values (q=0 refuses a type), case-insensitive types, wildcards less
// specific than explicit types, and ties broken by the order the client listed them.
import Negotiator from "negotiator";

export type Representation = "html" | "markdown";

// HTML first: when both are equally acceptable through wildcards only ("*/*", "text/*", no
// Accept) the page stays HTML.
const AVAILABLE = ["text/html", "text/markdown"] as const;

/** Media-type parameters other than q (charset, variant, …) do not change which type is meant. */
function withoutParams(accept: string): string {
  return accept
    .split(",")
    .map((range) => {
      const [type, ...params] = range.split(";");
      const q = params.map((p) => p.trim()).find((p) => /^q\s*=/i.test(p));
      return q ? `${type!.trim()};${q.replace(/\s+/g, "")}` : type!.trim();
    })
    .filter(Boolean)
    .join(", ");
}

/**
 * Which representation a page request asks for. Anything that does not prefer markdown gets HTML,
 * including `application/json` and headers accepting neither type (the page is the default
 * representation; there is no 406).
 */
export function preferredRepresentation(accept: string | null | undefined): Representation {
  if (!accept || !accept.trim()) return "html";
  const preferred = new Negotiator({ headers: { accept: withoutParams(accept) } }).mediaTypes([...AVAILABLE]);
  return preferred[0] === "text/markdown" ? "markdown" : "html";
}
