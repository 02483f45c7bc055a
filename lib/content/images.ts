import { createHash } from "node:crypto";
import type { ContentProblem } from "./errors";
import { IMAGE_PATH } from "./schemas";

// Images of a content folder (docs/decisions.md, "Content images"): files of its images/ folder,
// named in frontmatter as `images/<name>`, stored in the database with the content (ContentImage)
// and served by the app at /media/<sha256>/<name>, so an instance needs nothing but its database.

export const MEDIA_PREFIX = "/media/";
export const MAX_IMAGE_BYTES = 1024 * 1024;

export interface ContentImageFile {
  name: string;
  sha256: string;
  contentType: string;
  bytes: Buffer;
}

const TYPES: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", gif: "image/gif", svg: "image/svg+xml", ico: "image/x-icon",
};

/** Whether the bytes are what the extension says: a browser shows nothing for a mislabelled image. */
function looksLike(ext: string, b: Buffer): boolean {
  const starts = (...bytes: number[]) => bytes.every((v, i) => b[i] === v);
  switch (ext) {
    case "png":
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case "jpg":
    case "jpeg":
      return starts(0xff, 0xd8, 0xff);
    case "gif":
      return b.subarray(0, 6).toString("latin1") === "GIF87a" || b.subarray(0, 6).toString("latin1") === "GIF89a";
    case "webp":
      return b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP";
    case "ico":
      return starts(0, 0, 1, 0);
    case "svg": {
      const head = b.subarray(0, 1024).toString("utf8").replace(/^\uFEFF/, "").trimStart();
      return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/.test(head);
    }
    default:
      return false;
  }
}

/** The name a stored file of the folder (an image, a download's file) is kept under: its SHA-256, hex. */
export const contentAddress = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** Checks one file of images/ and names it by its content; a problem when it is not an image. */
export function readImageFile(name: string, bytes: Buffer): ContentImageFile | ContentProblem {
  const file = `images/${name}`;
  const m = IMAGE_PATH.exec(file);
  if (!m) return { file, line: 1, field: null, message: "an image's name is lower-case letters, digits, - _ . and ends .png, .jpg, .webp, .gif, .svg or .ico" };
  if (bytes.length > MAX_IMAGE_BYTES) return { file, line: 1, field: null, message: "is larger than 1 MiB" };
  const ext = m[2]!;
  if (!looksLike(ext, bytes)) return { file, line: 1, field: null, message: `is not a .${ext} image` };
  return { name, sha256: contentAddress(bytes), contentType: TYPES[ext]!, bytes };
}

/** The address a stored image is served at. */
export const mediaPath = (img: Pick<ContentImageFile, "sha256" | "name">) => `${MEDIA_PREFIX}${img.sha256}/${img.name}`;

/** The sha256 and name of a /media/ path (or a URL of one), else null. */
export function parseMediaPath(value: string): { sha256: string; name: string } | null {
  const m = /^\/media\/([0-9a-f]{64})\/([^/]+)$/.exec(value);
  return m ? { sha256: m[1]!, name: m[2]! } : null;
}

/** A frontmatter image value as stored: a folder image becomes its /media/ path, a URL stays. */
export function storedImage(value: string | null, images: Map<string, ContentImageFile>): string | null {
  if (value === null) return null;
  const m = IMAGE_PATH.exec(value);
  if (!m) return value;
  const img = images.get(m[1]!);
  return img ? mediaPath(img) : value;
}
