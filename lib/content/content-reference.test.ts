// docs/content.md is the content format's reference for school authors. It cannot drift from the
// zod schemas: every file's table lists exactly the schema's fields, "required" exactly where the
// schema has no default, and the served-dialect tables exactly the aliases the importer accepts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as s from "./schemas";
import { COMMON_DERIVED, DIALECTS, type ServedKind } from "./served-dialect";

const DOC = readFileSync(path.resolve(import.meta.dirname, "../../docs/content.md"), "utf8");

const SCHEMAS: Record<string, z.ZodObject> = {
  schoolSchema: s.schoolSchema, homeSchema: s.homeSchema, faqSchema: s.faqSchema, categorySchema: s.categorySchema,
  lecturerSchema: s.lecturerSchema, courseSchema: s.courseSchema, postSchema: s.postSchema, eventSchema: s.eventSchema,
  downloadSchema: s.downloadSchema, planSchema: s.planSchema,
};

/** The rows of the first table after a `<!-- marker -->` comment: first cell's `code`, and the cells. */
function tableAfter(marker: string): Map<string, string[]> {
  const at = DOC.indexOf(`<!-- ${marker} -->`);
  expect(at, `docs/content.md has no <!-- ${marker} -->`).toBeGreaterThan(-1);
  const rows = new Map<string, string[]>();
  const lines = DOC.slice(at).split("\n").slice(1);
  let seen = false;
  for (const line of lines) {
    if (!line.startsWith("|")) {
      if (seen) break;
      continue;
    }
    seen = true;
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    const name = /^`([^`]+)`$/.exec(cells[0]!)?.[1];
    if (name) rows.set(name, cells);
  }
  return rows;
}

describe("docs/content.md", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`documents every field of ${name}, and only those, with its default`, () => {
      const rows = tableAfter(`schema: ${name}`);
      expect([...rows.keys()].sort()).toEqual(Object.keys(schema.shape).sort());
      for (const [field, cells] of rows) {
        const required = !schema.shape[field]!.safeParse(undefined).success;
        expect(cells[2] === "required", `${name}.${field}: the default column says "required" exactly when the field is`).toBe(required);
      }
    });
  }

  it("lists the keys every served page carries and the importer ignores", () => {
    expect([...tableAfter("dialect: common").keys()].sort()).toEqual([...COMMON_DERIVED].sort());
  });

  for (const [kind, dialect] of Object.entries(DIALECTS) as Array<[ServedKind, (typeof DIALECTS)[ServedKind]]>) {
    it(`lists every served-dialect name of ${kind} the importer accepts`, () => {
      const rows = tableAfter(`dialect: ${kind}`);
      const expected = new Map(Object.entries(dialect.aliases).map(([from, to]) => [from, to === "body" ? "the body" : `\`${to}\``]));
      for (const key of dialect.derived) expected.set(key, "ignored");
      expect(new Map([...rows].map(([k, cells]) => [k, cells[1]!]))).toEqual(expected);
    });
  }
});
