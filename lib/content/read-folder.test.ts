// Whatever a content file holds, reading the folder either succeeds or throws ContentError whose
// every problem names the file and a line inside it: never another exception (seeded property test).
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "./errors";
import { readContentFolder } from "./read-folder";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "read-folder-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const yamlish = fc.string({
  unit: fc.constantFrom(..."abc:-[]{}#&*!|>'\"%@` \n\t0129.", "title: ", "price: ", "lecturers:\n  - ", "---\n", "\n  ", "<<: *a", "&a "),
  maxLength: 120,
});

describe("readContentFolder", () => {
  it("turns any frontmatter into a result or file:line problems (fast-check)", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(yamlish, fc.string({ maxLength: 40 }), fc.constantFrom("courses", "plans", "lecturers", "events"), async (front, body, kind) => {
        const dir = path.join(root, `case-${n++}`);
        await mkdir(path.join(dir, kind), { recursive: true });
        const text = `---\n${front}\n---\n${body}`;
        await writeFile(path.join(dir, kind, "item.md"), text);
        try {
          await readContentFolder(dir);
        } catch (err) {
          expect(err).toBeInstanceOf(ContentError);
          const lines = text.split("\n").length;
          for (const p of (err as ContentError).problems) {
            expect(p.file).toBe(`${kind}/item.md`);
            expect(p.line).toBeGreaterThanOrEqual(1);
            expect(p.line).toBeLessThanOrEqual(lines);
          }
        }
      }),
      { seed: 16, numRuns: 150 },
    );
  });

  it("names the exact line of a bad field deep in the frontmatter", async () => {
    const dir = path.join(root, "exact");
    await mkdir(path.join(dir, "events"), { recursive: true });
    await writeFile(
      path.join(dir, "events/night.md"),
      "---\ntitle: Night\nstartsAt: 2026-12-05T18:00:00Z\nendsAt: 2026-12-05T17:00:00Z\ntimezone: Mars/Olympus\n---\n",
    );
    const err = (await readContentFolder(dir).catch((e: unknown) => e)) as ContentError;
    expect(err.problems.map((p) => `${p.line} ${p.field}`)).toEqual(["5 timezone", "4 endsAt"]);
  });
});
