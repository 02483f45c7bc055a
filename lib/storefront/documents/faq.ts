// The FAQ document.
import { latest, type StorefrontDocument } from "../document";
import { sanitizeMarkdown } from "../markdown-body";
import { inlineText } from "../markdown-text";
import * as q from "../queries";
import { type BuildContext, urls } from "./shared";

/** Markdown of the FAQ: one H2 per question, so the HTML and the markdown read alike. */
export function faqMarkdown(entries: Array<{ question: string; answer: string }>): string {
  return entries.map((e) => `## ${inlineText(e.question)}\n\n${sanitizeMarkdown(e.answer)}\n`).join("\n");
}

export function faqDocument(ctx: BuildContext, entries: q.FaqRow[]): StorefrontDocument {
  const u = urls(ctx, "faq");
  return {
    kind: "faq",
    slug: "faq",
    title: "Frequently asked questions",
    description: `Answers to common questions about ${ctx.school.name}.`,
    ...u,
    updated: latest(entries.map((e) => e.updatedAt), ctx.school.updatedAt),
    fields: { count: entries.length },
    facts: [],
    body: faqMarkdown(entries),
    sections: [],
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "FAQPage",
      url: u.url,
      mainEntity: entries.map((e) => ({
        "@type": "Question",
        name: e.question,
        acceptedAnswer: { "@type": "Answer", text: e.answer },
      })),
    },
  };
}
