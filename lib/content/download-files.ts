import type { ContentProblem } from "./errors";
import { contentAddress } from "./images";
import { DOWNLOAD_FILE_HINT, DOWNLOAD_FILE_PATH, DOWNLOAD_TYPES } from "./schemas";

// Files of a content folder sold or given as digital downloads (docs/decisions.md, "Digital
// download files"): the folder's files/ folder, named in a download's frontmatter as
// `file: files/<name>`, stored in the database with the content (ContentFile, content-addressed like
// ContentImage) and never public: a member with the download's access gets it from
// /account/downloads/<id> (lib/account/download-file.ts).

/**
 * One file is one response body, and Vercel's functions answer at most 4.5 MB: a larger file needs
 * object storage and signed URLs, which this deployment does not have.
 */
export const MAX_DOWNLOAD_FILE_BYTES = 4 * 1024 * 1024;
/** All of files/ together: an import writes them in one transaction. */
export const MAX_DOWNLOAD_FILES_BYTES = 32 * 1024 * 1024;
export const FILES_DIR = "files";

export interface ContentDownloadFile {
  name: string;
  sha256: string;
  contentType: string;
  bytes: Buffer;
}

const isZip = (b: Buffer) => b[0] === 0x50 && b[1] === 0x4b && ((b[2] === 3 && b[3] === 4) || (b[2] === 5 && b[3] === 6));

function isUtf8Text(b: Buffer): boolean {
  if (b.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

/** Whether the bytes are what the extension says: a buyer whose file does not open got nothing. */
function looksLike(ext: string, b: Buffer): boolean {
  switch (ext) {
    case "pdf":
      return b.subarray(0, 5).toString("latin1") === "%PDF-";
    case "epub":
      return isZip(b) && b.subarray(30, 58).toString("latin1") === "mimetypeapplication/epub+zip";
    case "zip":
    case "docx":
    case "xlsx":
    case "pptx":
      return isZip(b);
    case "mp3":
      return b.subarray(0, 3).toString("latin1") === "ID3" || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0);
    case "txt":
    case "csv":
      return isUtf8Text(b);
    default:
      return false;
  }
}

/** Checks one file of files/ and names it by its content; a problem when it is not a download's file. */
export function readDownloadFile(name: string, bytes: Buffer): ContentDownloadFile | ContentProblem {
  const file = `${FILES_DIR}/${name}`;
  const m = DOWNLOAD_FILE_PATH.exec(file);
  if (!m) return { file, line: 1, field: null, message: `a file's name is ${DOWNLOAD_FILE_HINT}` };
  if (bytes.length > MAX_DOWNLOAD_FILE_BYTES) return { file, line: 1, field: null, message: "is larger than 4 MiB" };
  const ext = m[2]!;
  if (!looksLike(ext, bytes)) return { file, line: 1, field: null, message: `is not a .${ext} file` };
  return { name, sha256: contentAddress(bytes), contentType: DOWNLOAD_TYPES[ext]!, bytes };
}

/**
 * The Content-Disposition of a download: always an attachment (the browser saves it, never shows it
 * on the school's origin), its name reduced to safe ASCII for `filename` (no quote, backslash,
 * slash or control character can break out of it) and given whole as RFC 5987 `filename*`.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_").slice(0, 200) || "download";
  const encoded = encodeURIComponent(name.slice(0, 200).replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "_")).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
