// Issue 29 item 10: images of a content folder are stored with the content and served by the app
// at /media/<sha256>/<name> (immutable), referenced by the pages' documents; bad images fail the
// import with file and line; an export writes them back.
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError } from "@/lib/content/errors";
import { renderContentFolder } from "@/lib/content/export-content";
import { importContent } from "@/lib/content/import-content";
import { db } from "@/lib/db/client";
import { createSchool, type CreatedSchool } from "@/lib/schools/create-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";

const DEMO = path.resolve(import.meta.dirname, "../../content/demo");
let server: AppServer;
let other: AppServer;
let school: CreatedSchool;
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "content-images-"));
  school = await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "pictures", name: "Pictures", ownerEmail: "owner@pictures.example", now: new Date() });
  await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "other", name: "Other", ownerEmail: "owner@other.example", now: new Date() });
  server = await startAppServer({ host: "pictures.localhost" });
  other = await startAppServer({ host: "other.localhost" });
  const dir = path.join(tmp, "demo");
  await cp(DEMO, dir, { recursive: true });
  // The demo names an account for one lecturer; this school has none.
  const tomas = path.join(dir, "lecturers/tomas-rivera.md");
  await writeFile(tomas, (await readFile(tomas, "utf8")).replace(/^user: .*\n/m, ""));
  await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pictures", dir });
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

  it("names post and event covers in their pages, as course covers", async () => {
    for (const [page, name] of [["/api/md/posts/five-sql-mistakes", "five-sql-mistakes.jpg"], ["/api/md/events/studio-lighting-workshop", "studio-lighting-workshop.jpg"]]) {
      const text = await (await server.fetch(page!, { headers: { accept: "text/markdown" } })).text();
      const url = `http://pictures.localhost/media/${sha(await readFile(path.join(DEMO, "images", name!)))}/${name}`;
      expect(text, page).toContain(`image_url: "${url}"`);
      expect(text, page).toContain(`](${url})`);
    }
  });

  it("exports the images back into images/, byte for byte", async () => {
    const files = await renderContentFolder({ db: db(), schoolId: school.school.id });
    for (const name of ["logo.svg", "favicon.svg", "intro-to-sql.svg", "mei-ling-wu.svg"]) {
      expect((files.get(`images/${name}`) as Buffer).equals(await readFile(path.join(DEMO, "images", name))), name).toBe(true);
    }
    expect(files.get("courses/intro-to-sql.md")).toContain("imageUrl: images/intro-to-sql.svg");
    expect(files.get("posts/five-sql-mistakes.md")).toContain("imageUrl: images/five-sql-mistakes.jpg");
    expect(files.get("events/portfolio-review-night.md")).toContain("imageUrl: images/portfolio-review-night.jpg");
  });

  it("refuses a missing image, a mislabelled one and a bad name, with file and line, and writes nothing", async () => {
    const dir = path.join(tmp, "bad");
    await cp(path.join(DEMO, "categories"), path.join(dir, "categories"), { recursive: true });
    await cp(path.join(DEMO, "images"), path.join(dir, "images"), { recursive: true });
    await writeFile(path.join(dir, "images/fake.png"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    await writeFile(path.join(dir, "images/Bad Name.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    await writeFile(path.join(dir, "school.yaml"), "name: Pictures\nlogoUrl: images/nope.svg\n");
    await mkdir(path.join(dir, "posts"));
    await writeFile(path.join(dir, "posts/news.md"), "---\ntitle: News\nimageUrl: images/gone.jpg\n---\n");
    await mkdir(path.join(dir, "events"));
    await writeFile(path.join(dir, "events/meet.md"), "---\ntitle: Meet\nstartsAt: 2027-01-01T10:00:00Z\nendsAt: 2027-01-01T11:00:00Z\nimageUrl: images/gone.png\n---\n");
    const before = await db().contentImage.count();
    const err = await importContent({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pictures", dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "images/fake.png", message: "is not a .png image" }),
        expect.objectContaining({ file: "images/Bad Name.png" }),
        expect.objectContaining({ file: "school.yaml", line: 2, field: "logoUrl", message: "no image images/nope.svg in the folder" }),
        expect.objectContaining({ file: "posts/news.md", line: 3, field: "imageUrl", message: "no image images/gone.jpg in the folder" }),
        expect.objectContaining({ file: "events/meet.md", line: 5, field: "imageUrl", message: "no image images/gone.png in the folder" }),
      ]),
    );
    expect(await db().contentImage.count()).toBe(before);
  });
});

describe("resized content images (next/image's loader URLs)", () => {
  const cover = async () => {
    const bytes = await readFile(path.join(DEMO, "images/studio-lighting-workshop.jpg"));
    return { bytes, url: `/media/${sha(bytes)}/studio-lighting-workshop.jpg` };
  };

  it("serves a smaller image for a smaller width, as WebP when accepted, immutable and keyed by Accept", async () => {
    const { bytes, url } = await cover();
    const sizes: number[] = [];
    for (const w of [256, 640, 1200]) {
      const res = await server.fetch(`${url}?w=${w}&q=75`, { headers: { accept: "image/avif,image/webp,*/*" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/webp");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("vary")).toBe("Accept");
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.subarray(8, 12).toString("latin1")).toBe("WEBP");
      sizes.push(body.length);
      const again = await server.fetch(`${url}?w=${w}&q=75`, { headers: { accept: "image/webp", "if-none-match": res.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    expect(sizes[0]).toBeLessThan(sizes[1]!);
    expect(sizes[1]).toBeLessThan(sizes[2]!);
    expect(sizes[1]).toBeLessThan(bytes.length);
    // Without WebP in Accept: the image's own format.
    const jpeg = await server.fetch(`${url}?w=640`, { headers: { accept: "image/jpeg" } });
    expect(jpeg.headers.get("content-type")).toBe("image/jpeg");
    expect((await jpeg.arrayBuffer()).byteLength).toBeLessThan(bytes.length);
  });

  it("answers a width or quality outside the fixed sets with a plain 400, before looking anything up", async () => {
    const { url } = await cover();
    for (const q of ["w=641", "w=0", "w=-640", "w=640.0", "w=0640", "w=1e3", "w=abc", "w=", "w=640&w=256", "w=640&q=100", "w=640&q=0", "w=640&q=75&q=75", "q=75", "w=640&x=1", "w=99999999999999999999"]) {
      const res = await server.fetch(`${url}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get("content-type"), q).toBe("text/plain; charset=utf-8");
      expect(await res.text(), q).toMatch(/^(w must|q must|Give w|Only the parameters)/);
    }
    expect((await server.fetch(`/media/${"0".repeat(64)}/x.png?w=641`)).status).toBe(400);
  });

  it("serves vector images, and images too large to decode safely, as stored", async () => {
    const svg = await readFile(path.join(DEMO, "images/intro-to-sql.svg"));
    const res = await server.fetch(`/media/${sha(svg)}/intro-to-sql.svg?w=640&q=75`, { headers: { accept: "image/webp" } });
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(Buffer.from(await res.arrayBuffer()).equals(svg)).toBe(true);
    // A PNG that declares 20000 × 20000 pixels in a few bytes (a decompression bomb): never decoded.
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
      const head = Buffer.alloc(4);
      head.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([head, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20000, 0);
    ihdr.writeUInt32BE(20000, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const bomb = Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.alloc(60001 * 50))), chunk("IEND", Buffer.alloc(0))]);
    await db().contentImage.create({ data: { schoolId: school.school.id, sha256: sha(bomb), name: "bomb.png", contentType: "image/png", bytes: bomb } });
    const big = await server.fetch(`/media/${sha(bomb)}/bomb.png?w=640`, { headers: { accept: "image/webp" } });
    expect(big.status).toBe(200);
    expect(big.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await big.arrayBuffer()).equals(bomb)).toBe(true);
  });
});
