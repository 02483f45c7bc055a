#!/usr/bin/env node
// Writes the demo school's download files (content/demo/files): the SQL cheat sheet as a one-page
// PDF, the Lightroom presets as a ZIP of XMP presets and the style guide as a DOCX, each small, real
// (it opens in a PDF reader, an unzip tool, a word processor) and made here: no download, no remote
// host, and the same bytes on every run (fixed dates), so the content addresses never churn.
//   node scripts/make-demo-files.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

const dir = path.resolve(import.meta.dirname, "..", "content", "demo", "files");
mkdirSync(dir, { recursive: true });

/** A one-page PDF 1.4 of text lines in Helvetica, with a correct cross-reference table. */
function pdf(title, lines) {
  const esc = (t) => t.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [`BT /F1 20 Tf 56 780 Td (${esc(title)}) Tj ET`, ...lines.map((l, i) => `BT /F1 11 Tf 56 ${744 - i * 18} Td (${esc(l)}) Tj ET`)].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
  ];
  let out = "%PDF-1.4\n";
  const offsets = objects.map((body, i) => {
    const at = Buffer.byteLength(out, "latin1");
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A ZIP (deflated entries, fixed 2026-01-01 timestamps) of [name, text] pairs. */
function zip(entries) {
  const time = 0;
  const date = ((2026 - 1980) << 9) | (1 << 5) | 1;
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = Buffer.from(content, "utf8");
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

writeFileSync(
  path.join(dir, "sql-cheat-sheet.pdf"),
  pdf("SQL cheat sheet", [
    "The order the database runs a query in:",
    "1. FROM and JOIN: the rows to start from",
    "2. WHERE: keep the rows that match",
    "3. GROUP BY: one row per group",
    "4. HAVING: keep the groups that match",
    "5. SELECT: the columns, and window functions",
    "6. DISTINCT: drop repeated rows",
    "7. ORDER BY: sort",
    "8. LIMIT and OFFSET: keep a page",
    "",
    "Joins: INNER (both sides match), LEFT (every left row), FULL (every row of both).",
    "Dates: date_trunc('month', ts), ts + interval '7 days', extract(dow from ts).",
    "Windows: row_number() over (partition by team order by score desc).",
  ]),
);

const preset = (name, exposure, contrast, temp) => `<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
   crs:PresetType="Normal" crs:Version="15.0" crs:Exposure2012="${exposure}" crs:Contrast2012="${contrast}"
   crs:Temperature="${temp}" crs:Whites2012="+20" crs:Blacks2012="-5">
   <crs:Name><rdf:Alt><rdf:li xml:lang="x-default">${name}</rdf:li></rdf:Alt></crs:Name>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
`;
writeFileSync(
  path.join(dir, "catalog-presets.zip"),
  zip([
    ["README.txt", "Catalog presets: import the .xmp files in Lightroom (Presets panel, Import Presets).\n"],
    ["catalog-bright-white.xmp", preset("Catalog bright white", "+0.35", "+10", "5600")],
    ["catalog-soft-shadow.xmp", preset("Catalog soft shadow", "+0.15", "-5", "5400")],
    ["catalog-crisp-detail.xmp", preset("Catalog crisp detail", "+0.20", "+20", "5500")],
  ]),
);

const paragraphs = [
  "Style guide",
  "Voice: plain, direct and friendly. Write to one reader.",
  "Capitalization: sentence case for headings and buttons.",
  "Numbers: words for one to nine, digits from 10; always digits for money and measurements.",
  "Links: the link text says where it goes; never \u201cclick here\u201d.",
];
const xml = (t) => t.replace(/[<>&]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;" })[c]);
writeFileSync(
  path.join(dir, "style-guide-template.docx"),
  zip([
    [
      "[Content_Types].xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    ],
    [
      "_rels/.rels",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ],
    [
      "word/document.xml",
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs
        .map((p) => `<w:p><w:r><w:t xml:space="preserve">${xml(p)}</w:t></w:r></w:p>`)
        .join("")}</w:body></w:document>`,
    ],
  ]),
);
