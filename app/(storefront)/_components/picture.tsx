"use client";

import Image from "next/image";
import { useState } from "react";
import { initialsOf } from "./initials";
import { isResizable, mediaLoader } from "./media-loader";

/**
 * The school's raster images are resized by /media/ itself through a loader (docs/decisions.md,
 * "Content images"): Next's optimizer fetches a local image with a request of its own that does not
 * carry the school's host, so /media/ would answer it 404. SVG is vector and other hosts are not ours
 * to fetch: those are rendered unoptimized, as stored. next/image sizes them all (no layout shift).
 */
/**
 * An image of the school's content, or the name's initials: when there is no image, and when the
 * image does not load (a remote host that is down), so a page never shows a broken image.
 */
export function Picture(props: {
  src: string | null | undefined;
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
  return (
    <Image
      className={props.className}
      src={props.src}
      alt={props.alt}
      width={props.width}
      height={props.height}
      sizes={props.sizes}
      {...(isResizable(props.src) ? { loader: mediaLoader } : { unoptimized: true })}
      priority={props.priority}
      onError={() => setFailed(true)}
    />
  );
}
