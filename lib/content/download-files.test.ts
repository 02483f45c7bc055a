// The rules of a download's file (docs/decisions.md, "Digital download files"): the names and types
// files/ takes, the first bytes checked against the extension, the size limit, and a
// Content-Disposition no file name can break out of.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { attachmentDisposition, MAX_DOWNLOAD_FILE_BYTES, readDownloadFile } from "./download-files";
import { contentAddress } from "./images";
import { downloadSchema } from "./schemas";

const DEMO_FILES = path.resolve(import.meta.dirname, "../../content/demo/files");
const problem = (r: ReturnType<typeof readDownloadFile>) => ("message" in r ? r.message : null);

describe("readDownloadFile", () => {
  it("takes the demo's PDF, ZIP and DOCX, named by their SHA-256 and typed by their extension", () => {
    for (const [name, type] of [
      ["sql-cheat-sheet.pdf", "application/pdf"],
      ["catalog-presets.zip", "application/zip"],
      ["style-guide-template.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ] as const) {
      const bytes = readFileSync(path.join(DEMO_FILES, name));
      const read = readDownloadFile(name, bytes);
      expect(read, name).toEqual({ name, sha256: contentAddress(bytes), contentType: type, bytes });
    }
  });

  it("takes plain text, CSV, MP3 and EPUB whose bytes say so", () => {
    expect(problem(readDownloadFile("notes.txt", Buffer.from("Café au lait\n")))).toBeNull();
    expect(problem(readDownloadFile("scores.csv", Buffer.from("a,b\n1,2\n")))).toBeNull();
    expect(problem(readDownloadFile("talk.mp3", Buffer.from("ID3\u0004\u0000")))).toBeNull();
    const epub = Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(26), Buffer.from("mimetypeapplication/epub+zip")]);
    expect(problem(readDownloadFile("book.epub", epub))).toBeNull();
  });

  it("refuses a mislabelled file, text that is not UTF-8 or holds NUL, a type a browser runs, and a bad name", () => {
    expect(problem(readDownloadFile("guide.pdf", Buffer.from("<html>not a pdf</html>")))).toBe("is not a .pdf file");
    expect(problem(readDownloadFile("book.epub", Buffer.from([0x50, 0x4b, 3, 4, 0, 0])))).toBe("is not a .epub file");
    expect(problem(readDownloadFile("notes.txt", Buffer.from([0x61, 0xff, 0x62])))).toBe("is not a .txt file");
    expect(problem(readDownloadFile("notes.txt", Buffer.from("a\u0000b")))).toBe("is not a .txt file");
    for (const name of ["page.html", "logo.svg", "run.js", "Guide.pdf", "my guide.pdf", "../x.pdf", ".pdf"]) {
      expect(problem(readDownloadFile(name, Buffer.from("%PDF-1.4"))), name).toMatch(/^a file's name is lower-case letters/);
    }
  });

  it("refuses a file over 4 MiB (one response body on Vercel)", () => {
    const big = Buffer.alloc(MAX_DOWNLOAD_FILE_BYTES + 1, 0x20);
    big.write("%PDF-1.4");
    expect(problem(readDownloadFile("big.pdf", big))).toBe("is larger than 4 MiB");
    expect(problem(readDownloadFile("big.pdf", big.subarray(0, MAX_DOWNLOAD_FILE_BYTES)))).toBeNull();
  });
});

describe("downloadSchema's file", () => {
  const base = { title: "Guide", price: 5, currency: "USD" };
  it("is a path into files/; fileName and fileSizeBytes then come from the file", () => {
    expect(downloadSchema.parse({ ...base, file: "files/guide.pdf" })).toMatchObject({ file: "files/guide.pdf", fileName: null, fileSizeBytes: null });
    expect(downloadSchema.safeParse({ ...base, file: "images/guide.pdf" }).success).toBe(false);
    expect(downloadSchema.safeParse({ ...base, file: "files/guide.html" }).success).toBe(false);
    const both = downloadSchema.safeParse({ ...base, file: "files/guide.pdf", fileName: "guide.pdf", fileSizeBytes: 10 });
    expect(both.success).toBe(false);
    expect(both.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["fileName", "comes from file: leave it out"],
      ["fileSizeBytes", "comes from file: leave it out"],
    ]);
  });
});

describe("attachmentDisposition", () => {
  it("is always an attachment whose quoted name holds only safe ASCII, and the whole name in filename*", () => {
    expect(attachmentDisposition("sql-cheat-sheet.pdf")).toBe(`attachment; filename="sql-cheat-sheet.pdf"; filename*=UTF-8''sql-cheat-sheet.pdf`);
    const hostile = attachmentDisposition('a"; filename="evil.html\r\nSet-Cookie: x=1\\/..é(1)*\'.pdf');
    const quoted = /^attachment; filename="([^"]*)"; filename\*=UTF-8''([A-Za-z0-9%!#$&+^_`|~.-]*)$/.exec(hostile);
    expect(quoted, hostile).not.toBeNull();
    expect(quoted![1]).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(decodeURIComponent(quoted![2]!)).toBe('a"; filename="evil.html\r\nSet-Cookie: x=1\\/..é(1)*\'.pdf');
    expect(attachmentDisposition("..hidden.pdf")).toMatch(/^attachment; filename="_/);
    expect(attachmentDisposition("\ud800.pdf")).toContain("filename*=UTF-8''_.pdf");
  });
});
