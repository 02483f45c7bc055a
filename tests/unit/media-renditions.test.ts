// /media/'s renditions are exactly next/image's: the widths and qualities its loader can ask for
// are the ones the route accepts, so every srcset URL answers and nothing else is encoded.
import { readFileSync } from "node:fs";
import path from "node:path";
import { imageConfigDefault } from "next/dist/shared/lib/image-config";
import { describe, expect, it } from "vitest";
import { isResizable, mediaLoader } from "@/app/(storefront)/_components/media-loader";
import { MEDIA_QUALITIES, MEDIA_WIDTHS, parseRendition } from "@/lib/content/resize-image";

describe("renditions", () => {
  it("accept exactly next/image's default widths and qualities, and next.config.mjs changes neither", () => {
    expect([...MEDIA_WIDTHS].sort((a, b) => a - b)).toEqual([...imageConfigDefault.imageSizes, ...imageConfigDefault.deviceSizes].sort((a, b) => a - b));
    expect(MEDIA_QUALITIES).toEqual(imageConfigDefault.qualities);
    const config = readFileSync(path.resolve(import.meta.dirname, "../../next.config.mjs"), "utf8");
    expect(config).not.toMatch(/\bimages\s*:/);
  });

  it("parse w and q, and name what is wrong otherwise", () => {
    expect(parseRendition(new URLSearchParams(""))).toBeNull();
    expect(parseRendition(new URLSearchParams("w=640"))).toEqual({ width: 640, quality: 75 });
    expect(parseRendition(new URLSearchParams("w=32&q=75"))).toEqual({ width: 32, quality: 75 });
    for (const bad of ["w=641", "w=06", "w=640&q=80", "q=75", "w=640&w=640", "w=640&y=1", "w=%20640", "w=3840.5"]) {
      expect(parseRendition(new URLSearchParams(bad)), bad).toHaveProperty("error");
    }
  });

  it("the loader resizes only the school's stored raster images; everything else is served as it is", () => {
    const hash = "a".repeat(64);
    expect(isResizable(`/media/${hash}/cover.jpg`)).toBe(true);
    expect(isResizable(`http://demo.localhost:3000/media/${hash}/cover.webp`)).toBe(true);
    expect(isResizable(`/media/${hash}/logo.svg`)).toBe(false);
    expect(isResizable(`/media/${hash}/anim.gif`)).toBe(false);
    expect(isResizable("https://img.example/cover.jpg")).toBe(false);
    expect(isResizable(`/media/${hash}/cover.jpg?w=640`)).toBe(false);
    expect(mediaLoader({ src: `/media/${hash}/cover.jpg`, width: 640 })).toBe(`/media/${hash}/cover.jpg?w=640&q=75`);
    const url = mediaLoader({ src: `/media/${hash}/cover.jpg`, width: 1080, quality: 75 });
    expect(parseRendition(new URL(url, "http://x").searchParams)).toEqual({ width: 1080, quality: 75 });
  });
});
