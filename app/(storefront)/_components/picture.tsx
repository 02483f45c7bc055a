"use client";

import Image from "next/image";
import { useState } from "react";

/** Up to two initials of a name ("Tomás Rivera" → "TR"), for a picture that is missing. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = (words.length > 1 ? [words[0]!, words[words.length - 1]!] : words).map((w) => [...w][0]!.toUpperCase());
  return letters.join("") || "?";
}

/**
 * The address next/image gets: the school's own raster images (/media/… on the page's origin) go
 * through Next's optimizer (resized, WebP/AVIF; next.config.mjs allows /media/**); SVG is vector
 * and other hosts are not ours to fetch, so they are shown as they are (docs/decisions.md,
 * "Content images").
 */
function source(src: string, origin: string): { src: string; unoptimized: boolean } {
  try {
    const u = new URL(src, origin);
    const own = u.origin === origin && u.pathname.startsWith("/media/");
    return own && !/\.svg$/i.test(u.pathname) ? { src: u.pathname, unoptimized: false } : { src: u.href, unoptimized: true };
  } catch {
    return { src, unoptimized: true };
  }
}

/**
 * An image of the school's content, or the name's initials: when there is no image, and when the
 * image does not load (a remote host that is down), so a page never shows a broken image.
 */
export function Picture(props: {
  src: string | null | undefined;
  origin: string;
  alt: string;
  /** Name the initials are made of. */
  name: string;
  width: number;
  height: number;
  className: string;
  sizes?: string;
  priority?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  if (!props.src || failed) {
    // A decorative picture (alt "") stays decorative; otherwise the initials stand for the image.
    return props.alt ? (
      <span className={`${props.className} initials`} role="img" aria-label={props.alt}>
        <span aria-hidden="true">{initialsOf(props.name)}</span>
      </span>
    ) : (
      <span className={`${props.className} initials`} aria-hidden="true">
        {initialsOf(props.name)}
      </span>
    );
  }
  const { src, unoptimized } = source(props.src, props.origin);
  return (
    <Image
      className={props.className}
      src={src}
      alt={props.alt}
      width={props.width}
      height={props.height}
      sizes={props.sizes}
      unoptimized={unoptimized}
      priority={props.priority}
      onError={() => setFailed(true)}
    />
  );
}
