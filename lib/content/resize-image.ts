import sharp from "sharp";

// Resized content images (docs/decisions.md, "Content images"): /media/<sha256>/<name>?w=&q= is the
// school's image at one of next/image's widths, made here with sharp (the library Next's own
// optimizer uses). Next's optimizer cannot do it: it fetches the image with a request of its own
// that does not carry the school's host. Widths and qualities come from a fixed set, so a URL
// names one of a few renditions and nobody can make the server encode arbitrary sizes.

/** next/image's default deviceSizes and imageSizes (next.config.mjs sets none of its own). */
export const MEDIA_WIDTHS: readonly number[] = [32, 48, 64, 96, 128, 256, 384, 640, 750, 828, 1080, 1200, 1920, 2048, 3840];
/** next/image's default qualities. */
export const MEDIA_QUALITIES: readonly number[] = [75];
export const DEFAULT_QUALITY = 75;

/** Types resized; SVG is vector, GIF may be animated and ICO is a favicon: those are served as stored. */
export const RESIZABLE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);

/**
 * Images larger than this are served as stored, never decoded: a 1 MiB file can declare a huge
 * canvas (a decompression bomb), and decoding is what costs memory.
 */
export const MAX_INPUT_PIXELS = 4096 * 4096;

export interface Rendition {
  width: number;
  quality: number;
}

/**
 * The rendition a query string asks for: null for none (the stored image), or a message for a
 * 400. Only `w` (required) and `q`, each once, from the allowed sets.
 */
export function parseRendition(search: URLSearchParams): Rendition | null | { error: string } {
  const keys = [...search.keys()];
  if (keys.length === 0) return null;
  const unknown = keys.find((k) => k !== "w" && k !== "q");
  if (unknown !== undefined) return { error: "Only the parameters w and q are allowed." };
  const w = search.getAll("w");
  const q = search.getAll("q");
  if (w.length !== 1 || q.length > 1) return { error: "Give w once (and q at most once)." };
  const width = /^[1-9][0-9]{0,4}$/.test(w[0]!) ? Number(w[0]) : NaN;
  if (!MEDIA_WIDTHS.includes(width)) return { error: `w must be one of ${MEDIA_WIDTHS.join(", ")}.` };
  const quality = q.length === 0 ? DEFAULT_QUALITY : /^[1-9][0-9]{0,2}$/.test(q[0]!) ? Number(q[0]) : NaN;
  if (!MEDIA_QUALITIES.includes(quality)) return { error: `q must be one of ${MEDIA_QUALITIES.join(", ")}.` };
  return { width, quality };
}

// libvips' own operation cache would keep decoded images around; renditions are cached below instead.
sharp.cache(false);
// One thread per image: the storefront shares small machines with everything else.
sharp.concurrency(1);

/** At most this many images are decoded at once: the rest wait, so memory stays bounded. */
const MAX_CONCURRENT = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Recently made renditions, by key, least recently used first; bounded by their total bytes. */
const CACHE_BYTES = 16 * 1024 * 1024;
const cache = new Map<string, { bytes: Buffer; contentType: string }>();
let cachedBytes = 0;

function remember(key: string, value: { bytes: Buffer; contentType: string }) {
  if (value.bytes.length > CACHE_BYTES / 4) return;
  cache.set(key, value);
  cachedBytes += value.bytes.length;
  for (const [k, v] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(k);
    cachedBytes -= v.bytes.length;
  }
}

/**
 * The image at the rendition's width (never enlarged), as WebP when the client accepts it, else in
 * its own format; null when it is not resized (not a raster type, too many pixels, undecodable), and
 * the caller serves the stored bytes.
 */
export async function resizeImage(options: {
  sha256: string;
  contentType: string;
  bytes: Buffer;
  rendition: Rendition;
  acceptsWebp: boolean;
}): Promise<{ bytes: Buffer; contentType: string } | null> {
  const { sha256, contentType, bytes, rendition, acceptsWebp } = options;
  if (!RESIZABLE_TYPES.has(contentType)) return null;
  const format = acceptsWebp ? "webp" : contentType === "image/png" ? "png" : contentType === "image/jpeg" ? "jpeg" : "webp";
  const key = `${sha256}:${rendition.width}:${rendition.quality}:${format}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = await withSlot(async () => {
    try {
      const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) return null;
      const pipeline = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
        .rotate()
        .resize({ width: rendition.width, withoutEnlargement: true });
      const out =
        format === "webp"
          ? pipeline.webp({ quality: rendition.quality })
          : format === "png"
            ? pipeline.png({ compressionLevel: 9 })
            : pipeline.jpeg({ quality: rendition.quality, mozjpeg: true });
      return { bytes: await out.toBuffer(), contentType: `image/${format}` };
    } catch {
      // A stored file that passed the import's checks but does not decode: served as stored.
      return null;
    }
  });
  if (made) remember(key, made);
  return made;
}
