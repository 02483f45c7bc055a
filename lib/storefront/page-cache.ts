// The HTML page cache (docs/decisions.md "HTML page cache"). A storefront page is a function of the
// school's row, the origin it is served on and its document; nothing in it depends on who asks (the
// layout shows no member, the gate is decided in proxy.ts before the page is chosen). So the proxy
// rewrites an HTML request to `/_site/<render key>/<page path>`, a route Next renders once and
// keeps in its incremental cache (ISR, `revalidate = false`), and every later request with the same
// key is served from that cache without rendering.
//
// The key names everything the page shows: the school's id and row version, the origin, and a
// hash of the document. When content changes, the content cache (lib/db/content-cache.ts) builds a
// new document within STOREFRONT_REVALIDATE_MS, its hash changes, and the next request asks for a
// new key: there is nothing to invalidate, and a key can never name an outdated page. The key is
// signed (HMAC with the session secret) so a /_site URL cannot be forged for another school or
// origin; proxy.ts also refuses /_site from outside (only its own rewrites reach it).
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { School } from "../db/generated/client";
import type { StorefrontDocument } from "./document";

/** First path segment of the rendering route (app/%5Fsite/[site]/[[...path]]). */
export const RENDER_PREFIX = "/_site";

const hashes = new WeakMap<StorefrontDocument, string>();

/**
 * A short hash of the document (cached per document object: the content cache hands out the same
 * object until the document is rebuilt, so a hit costs a WeakMap lookup).
 */
export function documentHash(doc: StorefrontDocument): string {
  let h = hashes.get(doc);
  if (!h) {
    h = createHash("sha256").update(JSON.stringify(doc)).digest("base64url").slice(0, 22);
    hashes.set(doc, h);
  }
  return h;
}

export interface RenderKey {
  schoolId: string;
  /** The school row's updatedAt in ms: the layout shows its name, colour and contact address. */
  schoolVersion: number;
  origin: string;
  docHash: string;
}

const mac = (secret: string, payload: string) => createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22);

/** `<school id>.<school version>.<origin, base64url>.<document hash>.<mac>` */
export function encodeRenderKey(key: RenderKey, secret: string): string {
  const payload = [key.schoolId, String(key.schoolVersion), Buffer.from(key.origin).toString("base64url"), key.docHash].join(".");
  return `${payload}.${mac(secret, payload)}`;
}

const SEGMENT = /^([A-Za-z0-9_-]{1,64})\.(\d{1,16})\.([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})$/;

/** The key a segment encodes, or null when it is malformed or not signed with `secret`. */
export function decodeRenderKey(segment: string, secret: string): RenderKey | null {
  const m = SEGMENT.exec(segment);
  if (!m) return null;
  const payload = segment.slice(0, segment.lastIndexOf("."));
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(m[5]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const origin = Buffer.from(m[3]!, "base64url").toString("utf8");
  if (!/^https?:\/\/[^/\s]+$/.test(origin)) return null;
  return { schoolId: m[1]!, schoolVersion: Number(m[2]), origin, docHash: m[4]! };
}

/** The internal path the proxy rewrites an HTML page to. */
export function renderPath(o: { school: Pick<School, "id" | "updatedAt">; origin: string; doc: StorefrontDocument; htmlPath: string; secret: string }): string {
  const segment = encodeRenderKey(
    { schoolId: o.school.id, schoolVersion: o.school.updatedAt.getTime(), origin: o.origin, docHash: documentHash(o.doc) },
    o.secret,
  );
  return `${RENDER_PREFIX}/${segment}${o.htmlPath === "/" ? "" : o.htmlPath}`;
}

/**
 * Whether a request path addresses the rendering route, in any spelling Next's router might
 * normalise to it (percent-encoded characters, repeated slashes, any case of the escapes).
 */
export function isRenderPath(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // The edge guard answers malformed encodings before this runs; judge the raw form.
  }
  const normal = (p: string) => p.replace(/\\/g, "/").replace(/\/{2,}/g, "/");
  return [pathname, decoded].some((p) => {
    const n = normal(p).toLowerCase();
    return n === RENDER_PREFIX || n.startsWith(`${RENDER_PREFIX}/`);
  });
}

// Schools the proxy resolved, by id: a page rendered for a key the proxy just produced finds its
// school here (also while the database is unavailable) and looks it up only when absent or older.
const slot = globalThis as typeof globalThis & { __schoolhouseRenderSchools?: Map<string, School> };
const schools = (slot.__schoolhouseRenderSchools ??= new Map());

export function rememberSchool(school: School): void {
  const known = schools.get(school.id);
  if (known && known.updatedAt.getTime() >= school.updatedAt.getTime()) return;
  if (schools.size >= 10_000) schools.clear();
  schools.set(school.id, school);
}

export function rememberedSchool(id: string, version: number): School | null {
  const s = schools.get(id);
  return s && s.updatedAt.getTime() === version ? s : null;
}
