#!/usr/bin/env node
// Writes the demo schools' images (content/*/images): logo, favicon, course covers and lecturer
// portraits as small hand-drawn SVG, and one portrait as PNG (so the demo also has a raster image,
// which the storefront serves through Next's optimizer), made here: no download, no remote host.
//   node scripts/make-demo-images.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "..", "content");
const write = (school, name, svg) => {
  mkdirSync(path.join(root, school, "images"), { recursive: true });
  writeFileSync(path.join(root, school, "images", name), svg.replace(/\s*\n\s*/g, " ") + "\n");
};
const svg = (w, h, label, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${label}">${body}</svg>`;

function mark(color, letter, size, radius) {
  return svg(size, size, `${letter} logo`, `
    <rect width="${size}" height="${size}" rx="${radius}" fill="${color}"/>
    <text x="50%" y="54%" dominant-baseline="middle" text-anchor="middle" font-family="Georgia, serif" font-weight="700"
      font-size="${size * 0.62}" fill="#fff">${letter}</text>`);
}

/** A course cover: a gradient, a few shapes of the subject, 16:9. */
function cover(label, from, to, shapes) {
  return svg(640, 360, label, `
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="640" height="360" fill="url(#g)"/>${shapes}`);
}

/** A portrait: head and shoulders on a coloured ground, square. */
function portrait(label, ground, skin, hair, shirt) {
  return svg(256, 256, label, `
    <rect width="256" height="256" fill="${ground}"/>
    <path d="M40 256c0-52 40-84 88-84s88 32 88 84z" fill="${shirt}"/>
    <rect x="112" y="140" width="32" height="40" rx="12" fill="${skin}"/>
    <ellipse cx="128" cy="112" rx="46" ry="54" fill="${skin}"/>
    <path d="M80 108c0-40 22-62 48-62s50 20 50 62c-10-22-30-30-50-30s-38 8-48 30z" fill="${hair}"/>`);
}

/** CRC-32 of PNG chunks (ISO 3309), table-driven. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

/** The portrait above as a 256×256 RGB PNG: the same shapes, drawn pixel by pixel. */
function portraitPng(ground, skin, hair, shirt) {
  const size = 256;
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const inEllipse = (cx, cy, rx, ry) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
      let c = ground;
      if (y >= 172 && inEllipse(128, 256, 88, 84)) c = shirt;
      if (x >= 112 && x < 144 && y >= 140 && y < 180) c = skin;
      if (inEllipse(128, 112, 46, 54)) c = y < 90 && inEllipse(128, 104, 48, 58) ? hair : skin;
      hex(c).forEach((v, i) => (row[1 + x * 3 + i] = v));
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

const bars = (c) => [60, 110, 80, 150, 120].map((h, i) => `<rect x="${90 + i * 70}" y="${290 - h}" width="44" height="${h}" rx="6" fill="${c}"/>`).join("");

write("demo", "logo.svg", mark("#1f6feb", "S", 64, 14));
write("demo", "favicon.svg", mark("#1f6feb", "S", 32, 7));
write("demo", "intro-to-sql.svg", cover("Intro to SQL: a table of rows", "#1f6feb", "#0a3d91",
  [0, 1, 2, 3].map((r) => `<rect x="120" y="${80 + r * 52}" width="400" height="40" rx="6" fill="#fff" fill-opacity="${r === 0 ? 0.9 : 0.35}"/>`).join("")));
write("demo", "advanced-dashboards.svg", cover("Advanced Dashboards: bar chart", "#0b6e4f", "#083d2d", bars("#e8f5ef")));
write("demo", "python-for-data-analysis.svg", cover("Python for Data Analysis: a line chart", "#3b4cca", "#ffcb05",
  `<polyline points="80,280 180,220 280,240 380,150 480,170 560,90" fill="none" stroke="#fff" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>`));
write("demo", "product-photography-basics.svg", cover("Product Photography Basics: a camera", "#8a3ffc", "#31135e",
  `<rect x="190" y="120" width="260" height="160" rx="22" fill="#fff" fill-opacity="0.9"/><rect x="250" y="95" width="80" height="36" rx="8" fill="#fff" fill-opacity="0.9"/><circle cx="320" cy="200" r="52" fill="#31135e"/><circle cx="320" cy="200" r="30" fill="#8a3ffc"/>`));
write("demo", "writing-for-the-web.svg", cover("Writing for the Web: lines of text", "#da1e28", "#750e13",
  [0, 1, 2, 3, 4].map((r) => `<rect x="140" y="${90 + r * 40}" width="${[360, 300, 340, 220, 280][r]}" height="16" rx="8" fill="#fff" fill-opacity="0.85"/>`).join("")));
write("demo", "tomas-rivera.svg", portrait("Portrait of Tomás Rivera", "#d0e2ff", "#c58c5c", "#2b1d14", "#0f62fe"));
write("demo", "mei-ling-wu.svg", portrait("Portrait of Mei-Ling Wu", "#ffd6e8", "#f1c27d", "#161616", "#8a3ffc"));
writeFileSync(path.join(root, "demo", "images", "grace-adeyemi.png"), portraitPng("#defbe6", "#8d5524", "#1c1c1c", "#198038"));

write("acme-training", "logo.svg", mark("#0b6e4f", "A", 64, 14));
write("acme-training", "favicon.svg", mark("#0b6e4f", "A", 32, 7));
write("acme-training", "security-awareness.svg", cover("Security Awareness: a padlock", "#0b6e4f", "#052e21",
  `<rect x="250" y="160" width="140" height="120" rx="16" fill="#fff" fill-opacity="0.9"/><path d="M280 160v-30a40 40 0 0 1 80 0v30" fill="none" stroke="#fff" stroke-opacity="0.9" stroke-width="18"/><circle cx="320" cy="215" r="14" fill="#0b6e4f"/>`));

// Post and event covers: the same kind of drawing, rendered to 1280×720 JPEG with sharp (the library
// /media/ resizes with), so the demo also shows photo-like covers that next/image serves resized.
const { default: sharp } = await import("sharp");
const jpegCover = async (school, name, art) =>
  writeFileSync(
    path.join(root, school, "images", name),
    await sharp(Buffer.from(art)).resize(1280, 720).jpeg({ quality: 82, mozjpeg: true }).toBuffer(),
  );
const dots = (c) => Array.from({ length: 18 }, (_, i) => `<circle cx="${60 + (i % 6) * 104}" cy="${70 + Math.floor(i / 6) * 110}" r="${10 + ((i * 7) % 5) * 6}" fill="${c}" fill-opacity="0.35"/>`).join("");

await jpegCover("demo", "five-sql-mistakes.jpg", cover("Five SQL mistakes: rows counted twice", "#1f6feb", "#052e6f",
  [0, 1, 2].map((r) => `<rect x="110" y="${90 + r * 64}" width="300" height="44" rx="6" fill="#fff" fill-opacity="0.85"/><rect x="430" y="${90 + r * 64}" width="100" height="44" rx="6" fill="#ffb3b8"/>`).join("")));
await jpegCover("demo", "window-light-setup.jpg", cover("A window-light setup: a window and a product", "#f1c21b", "#8e6a00",
  `<rect x="110" y="60" width="200" height="240" rx="8" fill="#fff" fill-opacity="0.9"/><path d="M210 60v240M110 180h200" stroke="#8e6a00" stroke-width="10"/><rect x="400" y="190" width="110" height="110" rx="10" fill="#fff" fill-opacity="0.8"/><path d="M310 120L400 190" stroke="#fff" stroke-opacity="0.6" stroke-width="24"/>`));
await jpegCover("demo", "spring-schedule.jpg", cover("Spring schedule: a calendar", "#24a148", "#044317",
  `<rect x="170" y="70" width="300" height="230" rx="14" fill="#fff" fill-opacity="0.9"/><rect x="170" y="70" width="300" height="50" rx="14" fill="#0e6027"/>` +
    Array.from({ length: 12 }, (_, i) => `<rect x="${195 + (i % 4) * 68}" y="${140 + Math.floor(i / 4) * 50}" width="50" height="34" rx="5" fill="${i === 5 ? "#24a148" : "#d9f0df"}"/>`).join("")));
await jpegCover("demo", "sql-office-hours-december.jpg", cover("SQL office hours: a query on a screen", "#0f62fe", "#001d6c",
  `<rect x="140" y="70" width="360" height="210" rx="14" fill="#161616"/><rect x="300" y="280" width="40" height="36" fill="#161616"/>` +
    [0, 1, 2, 3].map((r) => `<rect x="170" y="${100 + r * 40}" width="${[220, 280, 160, 240][r]}" height="16" rx="8" fill="${["#78a9ff", "#42be65", "#ff7eb6", "#f1c21b"][r]}"/>`).join("")));
await jpegCover("demo", "studio-lighting-workshop.jpg", cover("Studio lighting workshop: a softbox and light", "#393939", "#0b0b0b",
  `<path d="M120 80l140 60v120l-140 60z" fill="#fff" fill-opacity="0.9"/><rect x="250" y="130" width="24" height="140" fill="#8d8d8d"/><circle cx="470" cy="220" r="70" fill="#f1c21b" fill-opacity="0.85"/>` + dots("#fff")));
await jpegCover("demo", "portfolio-review-night.jpg", cover("Portfolio review night: pages of a portfolio", "#8a3ffc", "#1c0f30",
  [0, 1, 2].map((i) => `<rect x="${130 + i * 130}" y="${100 + (i % 2) * 30}" width="120" height="170" rx="8" fill="#fff" fill-opacity="${0.95 - i * 0.15}" transform="rotate(${-6 + i * 6} ${190 + i * 130} 185)"/>`).join("")));
