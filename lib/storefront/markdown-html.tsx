// Stored markdown bodies rendered to React for the HTML pages, with next-mdx-remote.
import { compileMDX } from "next-mdx-remote/rsc";
import type { ComponentProps, ReactElement } from "react";
import { safeHref } from "./safe-url";

// Stored bodies are plain markdown: `format: "md"` parses no JSX, expressions, imports or raw HTML
// (raw HTML is dropped), and blockJS/blockDangerousJS stay on as a second guard. Links and images
// keep only http(s), mailto and relative targets.
const options = { mdxOptions: { format: "md" as const }, blockJS: true, blockDangerousJS: true, parseFrontmatter: false };

const components = {
  // A code block scrolls sideways on a phone; keyboard users must be able to focus it to scroll.
  pre: ({ children }: ComponentProps<"pre">) => <pre tabIndex={0}>{children}</pre>,
  a: ({ href, children }: ComponentProps<"a">) => {
    const safe = safeHref(href);
    return safe ? <a href={safe}>{children}</a> : <span>{children}</span>;
  },
  img: ({ src, alt }: ComponentProps<"img">) => {
    const safe = typeof src === "string" ? safeHref(src) : null;
    // eslint-disable-next-line @next/next/no-img-element -- stored content has arbitrary sizes and hosts
    return safe ? <img src={safe} alt={alt ?? ""} loading="lazy" /> : null;
  },
};

export async function renderMarkdown(source: string): Promise<ReactElement> {
  const { content } = await compileMDX({ source, options, components });
  return content;
}
