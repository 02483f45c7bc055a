// The storefront's text documents proxy.ts answers itself instead of passing the request on to
// their route handlers: the markdown twins (/api/md/<kind>[/<slug>]) and the llms files. They are
// served from the content cache's bytes, so after the proxy Next's own handling of a route handler
// (route resolution, params, the route module's request context, a second response pipe) was most
// of what such a request cost over the bare route (docs/benchmarks.md, issue 15 part c). The
// proxy calls the very functions the route handlers export, so both answer alike; every path or
// method not matched here (OPTIONS, 405s, malformed or percent-encoded slugs, unknown paths) still
// goes to the route handlers.
import { serveLlmsFullTxt, serveLlmsTxt } from "./llms-routes";
import { serveMarkdown } from "./markdown-route";
import { matchMarkdownApiPath } from "./routes";

type Handler = (request: Request) => Promise<Response>;

const TEXT_FILES: ReadonlyMap<string, Handler> = new Map([
  ["/llms.txt", serveLlmsTxt],
  ["/llms-full.txt", serveLlmsFullTxt],
]);

/** The handler the proxy answers a request with, or null to let it through to the routes. */
export function proxyServedHandler(method: string, pathname: string): Handler | null {
  if (method !== "GET" && method !== "HEAD") return null;
  const file = TEXT_FILES.get(pathname);
  if (file) return file;
  const md = matchMarkdownApiPath(pathname);
  return md ? (request) => serveMarkdown({ request, kind: md.kind, slug: md.slug }) : null;
}
