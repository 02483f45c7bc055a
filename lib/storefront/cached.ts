// The storefront's builders behind the content cache: what the routes and pages call. Each answers
// { value, stale }: stale is the last built copy, served while the database is unavailable.
import { allDocuments, buildDocument, type BuildContext } from "./build";
import { sitemapXml } from "./discovery";
import type { StorefrontDocument } from "./document";
import { strongEtag } from "./http";
import { buildLlmsFull, buildLlmsTxt } from "./llms";
import { estimateTokens, toMarkdown } from "./markdown";
import { cachedContentState, type CachedValue, type ContentResult } from "../db/content-cache";
import type { DocumentKind } from "./routes";

/** A finished text body with what its response needs. */
export interface TextPage {
  body: string;
  /** The body as UTF-8, encoded once when built rather than on every response. */
  encoded: Uint8Array<ArrayBuffer>;
  etag: string;
  tokens: number;
}

/** Pages embed absolute URLs and the school's name, so the key holds the origin and the school's row version. */
function keyOf(what: string, ctx: BuildContext, kind?: DocumentKind, slug?: string): string {
  return [what, ctx.school.id, ctx.school.updatedAt.getTime(), ctx.origin, kind ?? "", slug ?? ""].join("\u0000");
}

function textPage(body: string, changesAt?: Date | null): CachedValue<TextPage> {
  const encoded = new TextEncoder().encode(body);
  return { value: { body, encoded, etag: strongEtag(body), tokens: estimateTokens(body) }, bytes: body.length + encoded.byteLength, changesAt };
}

/** The document of a route (null: no published item has that slug). */
export function cachedDocument(ctx: BuildContext, kind: DocumentKind, slug?: string): Promise<ContentResult<StorefrontDocument | null>> {
  return cachedContentState(keyOf("doc", ctx, kind, slug), async () => {
    const doc = await buildDocument(ctx, kind, slug);
    return { value: doc, bytes: doc ? JSON.stringify(doc).length : 64, changesAt: doc?.changesAt };
  });
}

/** The markdown twin of a route, with its canonical HTML URL. */
export function cachedMarkdown(ctx: BuildContext, kind: DocumentKind, slug?: string): Promise<ContentResult<(TextPage & { url: string }) | null>> {
  return cachedContentState(keyOf("md", ctx, kind, slug), async () => {
    const doc = await buildDocument(ctx, kind, slug);
    if (!doc) return { value: null, bytes: 64 };
    const page = textPage(toMarkdown(doc), doc.changesAt);
    return { ...page, value: { ...page.value, url: doc.url } };
  });
}

export function cachedLlmsTxt(ctx: BuildContext): Promise<ContentResult<TextPage>> {
  return cachedContentState(keyOf("llms.txt", ctx), async () => textPage(await buildLlmsTxt(ctx)));
}

/** llms-full.txt and, past its budget, its parts by name. */
export interface LlmsFullPages {
  index: TextPage;
  parts: Map<string, TextPage>;
}

export function cachedLlmsFull(ctx: BuildContext): Promise<ContentResult<LlmsFullPages>> {
  return cachedContentState(keyOf("llms-full.txt", ctx), async () => {
    const { body, parts, changesAt } = await buildLlmsFull(ctx);
    const page = (text: string) => textPage(text).value;
    const value = { index: page(body), parts: new Map(parts.map((p) => [p.name, page(p.body)])) };
    return { value, bytes: body.length + parts.reduce((n, p) => n + p.body.length, 0), changesAt };
  });
}

/** sitemap.xml; the flag is part of the school row, whose version is in the key. */
export function cachedSitemap(ctx: BuildContext, o: { enterpriseTraining: boolean }): Promise<ContentResult<TextPage>> {
  return cachedContentState(keyOf("sitemap.xml", ctx), async () => {
    if (o.enterpriseTraining) return textPage(sitemapXml([]));
    const docs = await allDocuments(ctx);
    const changes = docs.flatMap((d) => (d.changesAt ? [d.changesAt.getTime()] : []));
    return textPage(sitemapXml(docs), changes.length ? new Date(Math.min(...changes)) : null);
  });
}
