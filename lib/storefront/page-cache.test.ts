import { describe, expect, it } from "vitest";
import type { StorefrontDocument } from "./document";
import { decodeRenderKey, documentHash, encodeRenderKey, isRenderPath, renderPath } from "./page-cache";

const SECRET = "page-cache-unit-test-secret";
const key = { schoolId: "5c400000-0000-4000-8000-000100000001", schoolVersion: 1795416501653, origin: "https://acme.example.com:8443", docHash: "F0OIXrvOkJVkyWeGrxYOMX" };
const doc = (title: string) => ({ kind: "course", title, description: "", facts: [], body: "", sections: [] }) as unknown as StorefrontDocument;

describe("render keys", () => {
  it("round-trip through a URL segment", () => {
    const segment = encodeRenderKey(key, SECRET);
    expect(segment).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(decodeRenderKey(segment, SECRET)).toEqual(key);
  });

  it("refuse a segment signed with another secret, or changed in any part", () => {
    const segment = encodeRenderKey(key, SECRET);
    expect(decodeRenderKey(segment, "another-secret")).toBeNull();
    const parts = segment.split(".");
    for (let i = 0; i < parts.length; i++) {
      const changed = [...parts];
      changed[i] = i === 1 ? String(Number(parts[1]) + 1) : parts[i]!.slice(0, -1) + (parts[i]!.endsWith("A") ? "B" : "A");
      expect(decodeRenderKey(changed.join("."), SECRET), `part ${i}`).toBeNull();
    }
    const forged = encodeRenderKey({ ...key, origin: "javascript:alert(1)" }, SECRET);
    expect(decodeRenderKey(forged, SECRET)).toBeNull();
    for (const junk of ["", "a.b.c.d.e", `${segment}.x`, segment.replace(".", "/")]) expect(decodeRenderKey(junk, SECRET)).toBeNull();
  });

  it("change with the document, the school's version and the origin", () => {
    const school = { id: key.schoolId, updatedAt: new Date(key.schoolVersion) };
    const base = { school, origin: key.origin, doc: doc("A"), htmlPath: "/courses/a", secret: SECRET };
    const p = renderPath(base);
    expect(p).toMatch(/^\/_site\/[^/]+\/courses\/a$/);
    expect(renderPath({ ...base, doc: doc("A") })).toBe(p);
    expect(renderPath({ ...base, doc: doc("B") })).not.toBe(p);
    expect(renderPath({ ...base, school: { ...school, updatedAt: new Date(key.schoolVersion + 1) } })).not.toBe(p);
    expect(renderPath({ ...base, origin: "http://localhost:3000" })).not.toBe(p);
    expect(renderPath({ ...base, htmlPath: "/" })).toMatch(/^\/_site\/[^/]+$/);
  });

  it("hash a document once per object", () => {
    const d = doc("A");
    expect(documentHash(d)).toBe(documentHash(d));
    expect(documentHash(d)).toHaveLength(22);
  });
});

describe("isRenderPath", () => {
  it("recognises the rendering route in every spelling the router could normalise", () => {
    for (const p of ["/_site", "/_site/", "/_site/x/courses/a", "/%5Fsite/x", "/%5fsite/x", "/_SITE/x", "//_site/x", "/_site%2Fx", "\\_site/x"]) {
      expect(isRenderPath(p), p).toBe(true);
    }
  });

  it("leaves every other path alone", () => {
    for (const p of ["/", "/courses/site", "/_sites", "/site/x", "/api/md/courses/a", "/courses/_site"]) expect(isRenderPath(p), p).toBe(false);
  });
});
