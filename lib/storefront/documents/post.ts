// A post's document.
import { type Fact, type StorefrontDocument } from "../document";
import { displayDate } from "../format";
import { sanitizeMarkdown } from "../markdown-body";
import * as q from "../queries";
import { safeAbsoluteUrl } from "../safe-url";
import { type BuildContext, urls, fact, iso, categoryOf, organization } from "./shared";

export function postDocument(ctx: BuildContext, p: q.PostRow): StorefrontDocument {
  const u = urls(ctx, "post", p.slug);
  const category = categoryOf(ctx, p.category);
  const author = p.author && p.author.status === "published" ? { ...p.author, ...urls(ctx, "lecturer", p.author.slug) } : null;
  const image = safeAbsoluteUrl(p.imageUrl, ctx.origin);
  const facts: Fact[] = [];
  if (p.publishedAt) facts.push(fact("published", "Published", { text: displayDate(p.publishedAt), datetime: iso(p.publishedAt) }));
  if (author) facts.push(fact("author", "Author", { text: author.name, url: author.url, markdownUrl: author.markdownUrl }));
  if (category) facts.push(fact("category", "Category", category.value));
  return {
    kind: "post",
    slug: p.slug,
    title: p.title,
    description: p.excerpt,
    ...u,
    image,
    updated: p.updatedAt,
    fields: {
      image_url: image,
      published: p.publishedAt ? iso(p.publishedAt) : null,
      author: author ? { name: author.name, slug: author.slug, url: author.url, markdown_url: author.markdownUrl } : null,
      category: category?.yaml ?? null,
    },
    facts,
    body: sanitizeMarkdown(p.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: p.title,
      description: p.excerpt,
      url: u.url,
      ...(image ? { image } : {}),
      ...(p.publishedAt ? { datePublished: iso(p.publishedAt) } : {}),
      dateModified: iso(p.updatedAt),
      ...(author ? { author: { "@type": "Person", name: author.name, url: author.url } } : { author: organization(ctx) }),
      publisher: organization(ctx),
    },
  };
}
