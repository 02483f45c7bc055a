import type { ImageLoaderProps } from "next/image";

// next/image's loader for the school's content images: /media/ resizes them itself
// (lib/content/resize-image.ts, docs/decisions.md "Content images"), at next/image's widths.

/** A stored raster image of the school (relative or on the page's own origin), which /media/ resizes. */
const RESIZABLE = /^(https?:\/\/[^/?#]+)?\/media\/[0-9a-f]{64}\/[a-z0-9._-]+\.(png|jpe?g|webp)$/;

export const isResizable = (src: string) => RESIZABLE.test(src);

export function mediaLoader({ src, width, quality }: ImageLoaderProps): string {
  return `${src}?w=${width}&q=${quality ?? 75}`;
}
