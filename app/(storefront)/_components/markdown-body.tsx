import { MDXRemote } from "next-mdx-remote/rsc";
import type { ComponentProps } from "react";
import { safeHref } from "@/lib/storefront/safe-url";

// Stored bodies are plain markdown: `format: "md"` parses no JSX, expressions, imports or raw HTML
// (raw HTML is dropped), and blockJS stays on as a second guard. Links and images only keep
// http(s), mailto and relative targets.
const options = { mdxOptions: { format: "md" as const }, blockJS: true, blockDangerousJS: true };

const components = {
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

export function MarkdownBody({ source }: { source: string }) {
  return <MDXRemote source={source} options={options} components={components} />;
}
