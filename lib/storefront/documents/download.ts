// A digital download's document.
import { type Fact, type StorefrontDocument } from "../document";
import { displayBytes, displayPrice, moneyString } from "../format";
import { sanitizeMarkdown } from "../markdown-body";
import * as q from "../queries";
import { type BuildContext, urls, fact, text, categoryOf, priceFields, organization, offer } from "./shared";

export function downloadDocument(ctx: BuildContext, d: q.DownloadRow): StorefrontDocument {
  const u = urls(ctx, "digital_download", d.slug);
  const price = moneyString(d.price);
  const category = categoryOf(ctx, d.category);
  const facts: Fact[] = [fact("price", "Price", text(displayPrice(price, d.currency)))];
  if (d.fileName) facts.push(fact("file", "File", text(d.fileSizeBytes ? `${d.fileName} (${displayBytes(d.fileSizeBytes)})` : d.fileName)));
  if (category) facts.push(fact("category", "Category", category.value));
  return {
    kind: "digital_download",
    slug: d.slug,
    title: d.title,
    description: d.summary,
    ...u,
    updated: d.updatedAt,
    fields: {
      ...priceFields(price, d.currency),
      file_name: d.fileName,
      file_size_bytes: d.fileSizeBytes,
      category: category?.yaml ?? null,
    },
    facts,
    body: sanitizeMarkdown(d.body),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Product",
      name: d.title,
      description: d.summary,
      url: u.url,
      sku: d.slug,
      ...(category ? { category: d.category!.name } : {}),
      brand: organization(ctx),
      offers: { ...offer(u.url, price, d.currency), seller: organization(ctx) },
    },
  };
}
