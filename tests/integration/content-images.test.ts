// Issue 29 item 10: images of a content folder are stored with the content and served by the app
// at /media/<sha256>/<name> (immutable), referenced by the pages' documents; bad images fail the
// import with file and line; an export writes them back.
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "@/lib/content/errors";
import { renderContentFolder } from "@/lib/content/export-content";
import { importContent } from "@/lib/content/import-content";
import { db } from "@/lib/db/client";
import { createSchool, type CreatedSchool } from "@/lib/schools/create-school";
import { startAppServer, type AppServer } from "../helpers/app-server";

const DEMO = path.resolve(import.meta.dirname, "../../content/demo");
let server: AppServer;
let other: AppServer;
let school: CreatedSchool;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "content-images-"));
  school = await createSchool({ db: db(), subdomain: "pictures", name: "Pictures", ownerEmail: "owner@pictures.example", now: new Date() });
  await createSchool({ db: db(), subdomain: "other", name: "Other", ownerEmail: "owner@other.example", now: new Date() });
  server = await startAppServer({ host: "pictures.localhost" });
  other = await startAppServer({ host: "other.localhost" });
  const dir = path.join(tmp, "demo");
  await cp(DEMO, dir, { recursive: true });
  // The demo names an account for one lecturer; this school has none.
  const tomas = path.join(dir, "lecturers/tomas-rivera.md");
  await writeFile(tomas, (await readFile(tomas, "utf8")).replace(/^user: .*\n/m, ""));
  await importContent({ db: db(), school: "pictures", dir });
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
  await rm(tmp, { recursive: true, force: true });
});

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("content images", () => {
  it("serves every image of the folder at its content address, immutable, from the database", async () => {
    const bytes = await readFile(path.join(DEMO, "images/intro-to-sql.svg"));
    const res = await server.fetch(`/media/${sha(bytes)}/intro-to-sql.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    const again = await server.fetch(`/media/${sha(bytes)}/intro-to-sql.svg`, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("answers 404 for another school's image, an unknown hash and a malformed address", async () => {
    const bytes = await readFile(path.join(DEMO, "images/logo.svg"));
    expect((await other.fetch(`/media/${sha(bytes)}/logo.svg`)).status).toBe(404);
    expect((await server.fetch(`/media/${"0".repeat(64)}/logo.svg`)).status).toBe(404);
    expect((await server.fetch(`/media/not-a-hash/logo.svg`)).status).toBe(404);
  });

  it("names the stored images in the pages: course cover, lecturer photo, logo and favicon", async () => {
    const course = await (await server.fetch("/api/md/courses/intro-to-sql", { headers: { accept: "text/markdown" } })).text();
    const cover = sha(await readFile(path.join(DEMO, "images/intro-to-sql.svg")));
    expect(course).toContain(`image_url: "http://pictures.localhost/media/${cover}/intro-to-sql.svg"`);
    const lecturer = await (await server.fetch("/api/md/lecturers/tomas-rivera", { headers: { accept: "text/markdown" } })).text();
    expect(lecturer).toContain(`/media/${sha(await readFile(path.join(DEMO, "images/tomas-rivera.svg")))}/tomas-rivera.svg`);
    const row = await db().school.findUniqueOrThrow({ where: { id: school.school.id } });
    expect(row.logoUrl).toBe(`/media/${sha(await readFile(path.join(DEMO, "images/logo.svg")))}/logo.svg`);
    expect(row.faviconUrl).toBe(`/media/${sha(await readFile(path.join(DEMO, "images/favicon.svg")))}/favicon.svg`);
  });

  it("exports the images back into images/, byte for byte", async () => {
    const files = await renderContentFolder({ db: db(), schoolId: school.school.id });
    for (const name of ["logo.svg", "favicon.svg", "intro-to-sql.svg", "mei-ling-wu.svg"]) {
      expect((files.get(`images/${name}`) as Buffer).equals(await readFile(path.join(DEMO, "images", name))), name).toBe(true);
    }
    expect(files.get("courses/intro-to-sql.md")).toContain("imageUrl: images/intro-to-sql.svg");
  });

  it("refuses a missing image, a mislabelled one and a bad name, with file and line, and writes nothing", async () => {
    const dir = path.join(tmp, "bad");
    await cp(path.join(DEMO, "categories"), path.join(dir, "categories"), { recursive: true });
    await cp(path.join(DEMO, "images"), path.join(dir, "images"), { recursive: true });
    await writeFile(path.join(dir, "images/fake.png"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    await writeFile(path.join(dir, "images/Bad Name.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await writeFile(path.join(dir, "school.yaml"), "name: Pictures\nlogoUrl: images/nope.svg\n");
    const before = await db().contentImage.count();
    const err = await importContent({ db: db(), school: "pictures", dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "images/fake.png", message: "is not a .png image" }),
        expect.objectContaining({ file: "images/Bad Name.png" }),
        expect.objectContaining({ file: "school.yaml", line: 2, field: "logoUrl", message: "no image images/nope.svg in the folder" }),
      ]),
    );
    expect(await db().contentImage.count()).toBe(before);
  });
});
