// Digital download files (docs/decisions.md, "Digital download files"): a content folder's files/
// stored with the content (ContentFile) on import and exported back, and served only to the
// signed-in member with the download's access at /account/downloads/<id>, checked on every request:
// the bytes as an attachment that no cache keeps; 404 for everyone else, whether the download exists
// or not; a visitor goes to sign in; a refund keeps the access. PGlite, and Postgres with
// TEST_DATABASE_URL.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountPageGate } from "@/lib/account/access";
import { memberDownloads } from "@/lib/account/queries";
import { ContentError } from "@/lib/content/errors";
import { renderContentFolder } from "@/lib/content/export-content";
import { contentAddress } from "@/lib/content/images";
import { importContent } from "@/lib/content/import-content";
import { db } from "@/lib/db/client";
import { DEMO_IDS } from "@/lib/startup/seed/demo-data";
import { appForSuite } from "../../helpers/app-for-suite";
import { TEST_ACTOR } from "../../helpers/audit-actor";
import { TEST_NOW, gql } from "../admin-api/helpers";
import { PAYMENT_FIELDS, checkoutClient } from "../billing/helpers";
import { signIn } from "../oauth/helpers";

const ORIGIN = "http://demo.localhost";
const DEMO = path.resolve(import.meta.dirname, "../../../content/demo");
const DOWNLOAD = { free: "5c400000-0000-4000-8000-000a00000001", presets: "5c400000-0000-4000-8000-000a00000002", guide: "5c400000-0000-4000-8000-000a00000003" };
// A download without a stored file (an older content folder's fileName only), owned by the student.
const FILELESS = "5c400000-0000-4000-8000-000a000000e1";

const app = appForSuite({
  host: "demo.localhost",
  now: TEST_NOW,
  prepare: async () => {
    await db().digitalDownload.upsert({
      where: { id: FILELESS },
      create: { id: FILELESS, schoolId: DEMO_IDS.school, slug: "fileless-pack", title: "Fileless pack", price: "0.00", currency: "USD", fileName: "pack.zip" },
      update: {},
    });
    await db().downloadAccess.createMany({ data: [{ schoolId: DEMO_IDS.school, downloadId: FILELESS, userId: DEMO_IDS.users.student }], skipDuplicates: true });
  },
});
const { start, started, pay, returnTo } = checkoutClient(app, ORIGIN);

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "download-files-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const demoFile = (name: string) => readFile(path.join(DEMO, "files", name));
const get = (downloadId: string, cookie = "", method = "GET") => app.fetch(`/account/downloads/${downloadId}`, { method, headers: cookie ? { cookie } : {}, redirect: "manual" });

describe("download files stored with the content", () => {
  it("the import stores every file of files/ and points each download at its file (name and size from the file)", async () => {
    for (const [id, name] of [[DOWNLOAD.free, "sql-cheat-sheet.pdf"], [DOWNLOAD.presets, "catalog-presets.zip"], [DOWNLOAD.guide, "style-guide-template.docx"]] as const) {
      const bytes = await demoFile(name);
      const row = await db().digitalDownload.findUniqueOrThrow({ where: { id } });
      expect(row, name).toMatchObject({ fileSha256: contentAddress(bytes), fileName: name, fileSizeBytes: bytes.length });
      const stored = await db().contentFile.findUniqueOrThrow({ where: { schoolId_sha256: { schoolId: DEMO_IDS.school, sha256: row.fileSha256! } } });
      expect(Buffer.from(stored.bytes).equals(bytes), name).toBe(true);
      expect(stored.name).toBe(name);
    }
  });

  it("exports the files back into files/, byte for byte, and importing the export changes nothing", async () => {
    const files = await renderContentFolder({ db: db(), schoolId: DEMO_IDS.school });
    for (const name of ["sql-cheat-sheet.pdf", "catalog-presets.zip", "style-guide-template.docx"]) {
      expect((files.get(`files/${name}`) as Buffer).equals(await demoFile(name)), name).toBe(true);
    }
    const md = files.get("digital-downloads/sql-cheat-sheet.md") as string;
    expect(md).toContain("file: files/sql-cheat-sheet.pdf");
    expect(md).not.toMatch(/fileName|fileSizeBytes/);
    // The re-import of the demo's own folder: nothing about files or downloads changes.
    const { changes } = await importContent({ actor: TEST_ACTOR, now: TEST_NOW, db: db(), school: "demo", dir: DEMO, dryRun: true });
    expect(changes.filter((c) => c.kind === "file" || c.kind === "downloads")).toEqual([
      // Only the download these tests made (not in the folder) would be unpublished.
      { kind: "downloads", key: "fileless-pack", action: "unpublish", fields: ["status"] },
    ]);
  });

  it("a changed file is stored anew and its download delivers it; the old row stays", async () => {
    const dir = path.join(tmp, "changed");
    await cp(DEMO, dir, { recursive: true });
    const v2 = Buffer.from("%PDF-1.4\n% second edition\n");
    await writeFile(path.join(dir, "files/sql-cheat-sheet.pdf"), v2);
    const before = await db().contentFile.count({ where: { schoolId: DEMO_IDS.school } });
    const { changes } = await importContent({ actor: TEST_ACTOR, now: TEST_NOW, db: db(), school: "demo", dir });
    expect(changes).toEqual(
      expect.arrayContaining([
        { kind: "file", key: "sql-cheat-sheet.pdf", action: "create", fields: [] },
        { kind: "downloads", key: "sql-cheat-sheet", action: "update", fields: ["fileSizeBytes", "fileSha256"] },
      ]),
    );
    expect(await db().contentFile.count({ where: { schoolId: DEMO_IDS.school } })).toBe(before + 1);
    expect((await db().digitalDownload.findUniqueOrThrow({ where: { id: DOWNLOAD.free } })).fileSha256).toBe(contentAddress(v2));
    // Back to the demo's file for the rest of the suite (its old row is still there: no new row).
    await importContent({ actor: TEST_ACTOR, now: TEST_NOW, db: db(), school: "demo", dir: DEMO });
    expect(await db().contentFile.count({ where: { schoolId: DEMO_IDS.school } })).toBe(before + 1);
  });

  it("refuses a missing file, a mislabelled one, a bad name and fileName beside file, with file and line, and writes nothing", async () => {
    const dir = path.join(tmp, "bad");
    await cp(path.join(DEMO, "categories"), path.join(dir, "categories"), { recursive: true });
    await cp(path.join(DEMO, "files"), path.join(dir, "files"), { recursive: true });
    await writeFile(path.join(dir, "files/fake.pdf"), "<html><script>alert(1)</script></html>");
    await writeFile(path.join(dir, "files/page.html"), "<html></html>");
    await cp(path.join(DEMO, "digital-downloads"), path.join(dir, "digital-downloads"), { recursive: true });
    await writeFile(path.join(dir, "digital-downloads/gone.md"), "---\ntitle: Gone\nprice: 5\ncurrency: USD\nfile: files/gone.pdf\n---\n");
    await writeFile(path.join(dir, "digital-downloads/both.md"), "---\ntitle: Both\nprice: 5\ncurrency: USD\nfile: files/sql-cheat-sheet.pdf\nfileName: other.pdf\n---\n");
    const before = { files: await db().contentFile.count(), downloads: await db().digitalDownload.count() };
    const err = await importContent({ actor: TEST_ACTOR, now: TEST_NOW, db: db(), school: "demo", dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentError);
    expect((err as ContentError).problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: "files/fake.pdf", message: "is not a .pdf file" }),
        expect.objectContaining({ file: "files/page.html", message: expect.stringMatching(/^a file's name is lower-case letters/) }),
        expect.objectContaining({ file: "digital-downloads/gone.md", line: 5, field: "file", message: "no file files/gone.pdf in the folder" }),
        expect.objectContaining({ file: "digital-downloads/both.md", line: 6, field: "fileName", message: "comes from file: leave it out" }),
      ]),
    );
    expect({ files: await db().contentFile.count(), downloads: await db().digitalDownload.count() }).toEqual(before);
  });
});

describe("GET /account/downloads/<id>", () => {
  const expectFile = async (res: Response, name: string, type: string) => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}"; filename*=UTF-8''${name}`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(await demoFile(name))).toBe(true);
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
  };

  it("the buyer of a paid download gets its bytes, as an attachment no cache keeps, on every request", async () => {
    const cookie = await signIn(app, "reviewer@schoolhouse.test");
    expect((await get(DOWNLOAD.presets, cookie)).status).toBe(404);
    const s = await started({ download: DOWNLOAD.presets }, cookie);
    expect((await pay(s.hostedPath, "4242424242424242")).status).toBe(303);
    expect((await returnTo(s.checkoutId, `${cookie}; ${s.tokenCookie}`)).status).toBe(200);
    await expectFile(await get(DOWNLOAD.presets, cookie), "catalog-presets.zip", "application/zip");
    const head = await get(DOWNLOAD.presets, cookie, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-disposition")).toMatch(/^attachment;/);
    // What the account page links (the page itself: tests/e2e/downloads.spec.ts).
    const listed = await memberDownloads({ schoolId: DEMO_IDS.school, userId: DEMO_IDS.users.reviewer });
    expect(listed).toEqual([expect.objectContaining({ title: "Catalog Lightroom presets", filePath: `/account/downloads/${DOWNLOAD.presets}`, fileName: "catalog-presets.zip" })]);
  });

  it("a refund keeps the access: the refunded buyer still downloads the file", async () => {
    const cookie = await signIn(app, "reviewer@schoolhouse.test");
    const payment = await db().payment.findFirstOrThrow({ where: { downloadId: DOWNLOAD.presets, userId: DEMO_IDS.users.reviewer } });
    const r = await gql(app, `mutation R($input: AdminRefundPaymentInput!) { refundPayment(input: $input) { errors payment { ${PAYMENT_FIELDS} } } }`, { input: { paymentId: payment.id } });
    expect(r.body.data.refundPayment).toMatchObject({ errors: [], payment: { state: "refunded" } });
    await expectFile(await get(DOWNLOAD.presets, cookie), "catalog-presets.zip", "application/zip");
  });

  it("a free download taken on its page is downloaded the same way", async () => {
    const cookie = await signIn(app, "student@schoolhouse.test");
    expect((await get(DOWNLOAD.free, cookie)).status).toBe(404);
    expect((await start({ download: DOWNLOAD.free }, cookie)).status).toBe(303);
    await expectFile(await get(DOWNLOAD.free, cookie), "sql-cheat-sheet.pdf", "application/pdf");
  });

  it("404, the same for all, to a member without access, for an unknown, malformed or fileless download; a visitor goes to sign in", async () => {
    const other = await signIn(app, "ta@schoolhouse.test");
    const notFound = async (res: Response) => {
      expect(res.status).toBe(404);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("content-disposition")).toBeNull();
      return res.text();
    };
    const bodies = [
      await notFound(await get(DOWNLOAD.presets, other)),
      await notFound(await get(DOWNLOAD.free, other)),
      await notFound(await get("5c400000-0000-4000-8000-0000000000ff", other)),
      await notFound(await get("not-a-uuid", other)),
      await notFound(await get(FILELESS, await signIn(app, "student@schoolhouse.test"))),
    ];
    expect(new Set(bodies).size).toBe(1);
    const visitor = await get(DOWNLOAD.presets);
    expect(visitor.status).toBe(307);
    expect(visitor.headers.get("location")).toBe(`${ORIGIN}/login?callbackUrl=${encodeURIComponent(`/account/downloads/${DOWNLOAD.presets}`)}`);
  });

  it("a signed-in account of another school gets the same 404 (the proxy's gate lets it through), not the account pages' 403", async () => {
    const cookie = await signIn(app, "employee@schoolhouse.test");
    await db().downloadAccess.createMany({ data: [{ schoolId: DEMO_IDS.school, downloadId: DOWNLOAD.guide, userId: DEMO_IDS.users.acmeEmployee }], skipDuplicates: true });
    // Even with an access row (as if bought before staff removed them): not a member here, no file.
    expect((await get(DOWNLOAD.guide, cookie)).status).toBe(404);
    const gate = (p: string) => accountPageGate(new Request(`${ORIGIN}${p}`, { headers: { host: "demo.localhost", cookie } }), p);
    expect(await gate(`/account/downloads/${DOWNLOAD.guide}`)).toBeNull();
    expect((await gate("/account/courses"))?.status).toBe(403);
  });
});
