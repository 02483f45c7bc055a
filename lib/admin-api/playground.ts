// The GraphiQL playground of the Admin API as a small page and immutable assets: GraphiQL's script,
// style, editor workers and icon (from the installed @graphql-yoga/render-graphiql, so no CDN and no
// network) are served once under content-hashed names with a one-year immutable Cache-Control; the
// page itself is a few KB (it was 9 MB of inlined assets sent on every visit).
//
// The API key is asked for once, kept in sessionStorage for the browser tab's session, and added to
// every request the playground sends (every example tab, and the schema introspection, which runs
// again as soon as a key is set).
import { createHash } from "node:crypto";
import { ADMIN_GRAPHQL_PATH } from "./path";
import { playgroundOptions } from "./playground-examples";

export const PLAYGROUND_ASSETS_PATH = `${ADMIN_GRAPHQL_PATH}/assets`;
const IMMUTABLE = "public, max-age=31536000, immutable";
const KEY_STORAGE = "schoolhouse.adminApiKey";

interface Asset {
  name: string;
  type: string;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

interface Playground {
  html: string;
  etag: string;
  assets: Map<string, Asset>;
}

const hash = (data: string | Uint8Array) => createHash("sha256").update(data).digest("base64url");

function asset(stem: string, ext: string, type: string, body: Uint8Array<ArrayBuffer>): Asset {
  const h = hash(body);
  return { name: `${stem}.${h.slice(0, 16)}.${ext}`, type, body, etag: `"${h.slice(0, 27)}"` };
}

const text = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

function dataUrlBytes(url: string): { type: string; body: Uint8Array<ArrayBuffer> } {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!m) throw new Error("GraphiQL's favicon is not a base64 data URL");
  return { type: m[1]!, body: new Uint8Array(Buffer.from(m[2]!, "base64")) };
}

let cached: Promise<Playground> | undefined;

/**
 * Imported on the first request for the page or an asset, not with the route: the package is one
 * 8.6 MB module, and every Admin API request loads this route (docs/benchmarks.md, "Memory").
 */
function playground(): Promise<Playground> {
  cached ??= build().catch((err: unknown) => {
    cached = undefined;
    throw err;
  });
  return cached;
}

async function build(): Promise<Playground> {
  const g = await import("@graphql-yoga/render-graphiql/graphiql");
  const icon = dataUrlBytes(g.favicon);
  const list = {
    js: asset("graphiql", "js", "text/javascript; charset=utf-8", text(g.js)),
    css: asset("graphiql", "css", "text/css; charset=utf-8", text(g.css)),
    editorWorkerService: asset("editor.worker", "js", "text/javascript; charset=utf-8", text(g.editorWorkerService)),
    json: asset("json.worker", "js", "text/javascript; charset=utf-8", text(g.jsonWorker)),
    graphql: asset("graphql.worker", "js", "text/javascript; charset=utf-8", text(g.graphqlWorker)),
    icon: asset("favicon", icon.type.includes("png") ? "png" : "ico", icon.type, icon.body),
  };
  const url = (a: Asset) => `${PLAYGROUND_ASSETS_PATH}/${a.name}`;
  const workers = { editorWorkerService: url(list.editorWorkerService), json: url(list.json), graphql: url(list.graphql) };
  const html = page({ css: url(list.css), js: url(list.js), icon: url(list.icon), workers });
  return { html, etag: `"${hash(html).slice(0, 27)}"`, assets: new Map(Object.values(list).map((a) => [a.name, a])) };
}

// JSON inside a <script>: "<" escaped so no value can close the element.
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

function page(o: { css: string; js: string; icon: string; workers: Record<string, string> }): string {
  const options = playgroundOptions();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<link rel="icon" href="${o.icon}">
<link rel="stylesheet" href="${o.css}">
<style>
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; }
#root { flex: 1; min-height: 0; }
.key-bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 12px; font: 14px/1.4 system-ui, sans-serif; background: #f6f7f9; color: #1b1f24; border-bottom: 1px solid #d0d7de; }
.key-bar input { flex: 1 1 12em; min-width: 0; padding: 6px 8px; font: inherit; border: 1px solid #6e7781; border-radius: 4px; }
.key-bar button { padding: 6px 12px; font: inherit; border: 1px solid #1f6feb; border-radius: 4px; background: #0b5cd5; color: #fff; }
.key-bar [role=status] { flex-basis: 100%; }
</style>
</head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run this app.</noscript>
<form class="key-bar" id="key-form" aria-label="API key">
<label for="api-key">API key (X-Service-API-Key, for every tab)</label>
<input id="api-key" name="key" type="password" autocomplete="off" spellcheck="false" placeholder="sh_…">
<button type="submit">Use key</button>
<p role="status" id="key-status"></p>
</form>
<main id="root" aria-label="GraphiQL"></main>
<script>self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: function (_id, label) { return ${scriptJson(o.workers)}[label]; } };</script>
<script src="${o.js}"></script>
<script>
(function () {
  var STORAGE = ${scriptJson(KEY_STORAGE)};
  var endpoint = new URL(${scriptJson(ADMIN_GRAPHQL_PATH)}, location.href).href;
  var form = document.getElementById("key-form");
  var input = document.getElementById("api-key");
  var status = document.getElementById("key-status");
  function key() { try { return sessionStorage.getItem(STORAGE) || ""; } catch (e) { return ""; } }
  function show() { status.textContent = key() ? "A key is set for this session; every tab and the schema use it." : "Paste an Admin API key to run the examples and load the schema."; }
  // Every request to the Admin API gets the session's key, unless its tab sets one itself.
  var fetch0 = window.fetch.bind(window);
  window.fetch = function (resource, init) {
    var url = typeof resource === "string" ? resource : resource instanceof URL ? resource.href : resource.url;
    if (new URL(url, location.href).href !== endpoint || !key()) return fetch0(resource, init);
    var headers = new Headers((init && init.headers) || (resource instanceof Request ? resource.headers : undefined));
    if (!headers.has("x-service-api-key")) headers.set("X-Service-API-Key", key());
    return fetch0(resource, Object.assign({}, init, { headers: headers }));
  };
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    try { sessionStorage.setItem(STORAGE, input.value.trim()); } catch (e) {}
    input.value = "";
    show();
    // The schema is fetched again at once with the new key.
    var refetch = document.querySelector('[aria-label^="Re-fetch GraphQL schema"]');
    if (refetch) refetch.click();
  });
  show();
  YogaGraphiQL.renderYogaGraphiQL(document.getElementById("root"), ${scriptJson(options)});
})();
</script>
</body>
</html>
`;
}

export async function playgroundResponse(request: Request): Promise<Response> {
  const { html, etag } = await playground();
  const headers = { "content-type": "text/html; charset=utf-8", etag, "cache-control": "no-cache", vary: "accept" };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(html, { headers });
}

/** GET /admin/graphql/assets/<name>: one of the playground's assets, immutable; 404 for any other name. */
export async function playgroundAssetResponse(request: Request, name: string): Promise<Response> {
  const a = (await playground()).assets.get(name);
  if (!a) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  const headers = { "content-type": a.type, etag: a.etag, "cache-control": IMMUTABLE, "x-content-type-options": "nosniff" };
  if (request.headers.get("if-none-match") === a.etag) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : a.body, { headers });
}
