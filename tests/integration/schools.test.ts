// Opening a school from nothing: createSchool, the one-time password link, the owner's Admin API
// key, members, disabling and custom domains, all checked through HTTP.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateMember } from "@/lib/auth/login";
import { advance, setNow } from "@/lib/clock";
import { hashSecret } from "@/lib/credentials/secret";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/schools/add-member";
import { createSchool, type CreatedSchool } from "@/lib/schools/create-school";
import { SchoolCommandError } from "@/lib/schools/errors";
import { listSchools, setCustomDomain, setSchoolEnabled } from "@/lib/schools/manage-schools";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { TEST_ACTOR } from "../helpers/audit-actor";

let server: AppServer;
let created: CreatedSchool;
const T0 = new Date("2026-11-22T10:00:00Z");

beforeAll(async () => {
  setNow(T0);
  created = await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "Pottery", name: "Clay & Kiln", ownerEmail: " Owner@Pottery.Example ", now: T0 });
  server = await startAppServer({ host: "pottery.localhost" });
});
afterAll(async () => {
  setNow(null);
  await server.close();
});

const setPassword = (form: Record<string, string>) =>
  server.fetch("/api/account/set-password", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });

const adminQuery = (key: string, host = "pottery.localhost") =>
  server.fetch("/admin/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": key, host },
    body: JSON.stringify({ query: "{ courses { nodes { id } } }" }),
  });

describe("createSchool", () => {
  it("creates the school, its owner without a password, and a hashed one-time token", async () => {
    expect(created.school.subdomain).toBe("pottery");
    expect(created.owner).toMatchObject({ email: "owner@pottery.example", created: true });
    const owner = await db().user.findUniqueOrThrow({ where: { id: created.owner.id } });
    expect(owner.passwordHash).toBeNull();
    const membership = await db().schoolMembership.findUniqueOrThrow({
      where: { schoolId_userId: { schoolId: created.school.id, userId: owner.id } },
    });
    expect(membership.roles).toEqual(["owner"]);
    const tokens = await db().passwordSetupToken.findMany({ where: { userId: owner.id } });
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.tokenHash).toBe(hashSecret(created.passwordSetup!.token));
    expect(tokens[0]!.tokenHash).not.toContain(created.passwordSetup!.token);
    expect(created.passwordSetup!.expiresAt.getTime() - T0.getTime()).toBe(72 * 3_600_000);
  });

  it("stores only the API key's hash, and the key works on the Admin API through HTTP", async () => {
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: created.apiKey.id } });
    expect(row.secretHash).not.toContain(created.apiKey.key);
    const res = await adminQuery(created.apiKey.key);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ courses: { nodes: [] } });
  });

  it("refuses a taken, reserved or malformed subdomain and a bad email without writing anything", async () => {
    const before = await db().school.count();
    const attempts = [
      { subdomain: "pottery", name: "x", ownerEmail: "a@b.example", msg: /already exists/ },
      { subdomain: "www", name: "x", ownerEmail: "a@b.example", msg: /--subdomain is reserved/ },
      { subdomain: "-bad-", name: "x", ownerEmail: "a@b.example", msg: /--subdomain must be/ },
      { subdomain: "fine", name: " ", ownerEmail: "a@b.example", msg: /--name must not be empty/ },
      { subdomain: "fine", name: "x", ownerEmail: "not-an-email", msg: /--owner-email must be an email/ },
    ];
    for (const { msg, ...a } of attempts) {
      await expect(createSchool({ actor: TEST_ACTOR, db: db(), ...a, now: T0 })).rejects.toThrow(msg);
    }
    expect(await db().school.count()).toBe(before);
    expect(await db().user.count({ where: { email: "a@b.example" } })).toBe(0);
  });
});

describe("the one-time password link", () => {
  it("rejects a short password and mismatched confirmation, then sets the password once", async () => {
    const token = created.passwordSetup!.token;
    const weak = await setPassword({ token, password: "short", confirm: "short" });
    expect(weak.status).toBe(303);
    expect(weak.headers.get("location")).toBe(`/account/set-password?token=${token}&error=weak_password`);
    const mismatch = await setPassword({ token, password: "a-long-password-1", confirm: "a-long-password-2" });
    expect(mismatch.headers.get("location")).toContain("error=mismatch");

    const ok = await setPassword({ token, password: "glazed-and-fired", confirm: "glazed-and-fired" });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/login?setup=done&email=owner%40pottery.example");
    expect(await authenticateMember({ credentials: { email: "owner@pottery.example", password: "glazed-and-fired" } })).toMatchObject({
      ok: true,
      member: { email: "owner@pottery.example" },
    });

    // Single use: a second submission cannot change the password again.
    const again = await setPassword({ token, password: "taken-over-now", confirm: "taken-over-now" });
    expect(again.headers.get("location")).toContain("error=used_link");
    expect(await authenticateMember({ credentials: { email: "owner@pottery.example", password: "taken-over-now" } })).toMatchObject({ ok: false });
  });

  it("expires after its lifetime and rejects unknown or malformed tokens", async () => {
    const m = await addMember({ actor: TEST_ACTOR, db: db(), school: "pottery", email: "ta@pottery.example", role: "teaching_assistant", now: T0 });
    advance(72 * 3_600_000);
    const expired = await setPassword({ token: m.passwordSetup!.token, password: "never-accepted", confirm: "never-accepted" });
    expect(expired.headers.get("location")).toContain("error=expired_link");
    for (const token of ["", "x".repeat(43), "../../etc", "a".repeat(5000)]) {
      const r = await setPassword({ token, password: "never-accepted", confirm: "never-accepted" });
      expect(r.status).toBe(303);
      expect(r.headers.get("location")).toContain("error=invalid_link");
    }
    const user = await db().user.findUniqueOrThrow({ where: { email: "ta@pottery.example" } });
    expect(user.passwordHash).toBeNull();
    setNow(T0);
  });

  it("hostile form bodies: never a 5xx, never a password written (seeded property test)", async () => {
    const before = await db().user.findMany({ select: { id: true, passwordHash: true }, orderBy: { id: "asc" } });
    const field = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("", "x".repeat(43), "%00", "\u0000", "a&b=c", "é".repeat(50)));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ token: field, password: field, confirm: field }, { requiredKeys: [] }),
        fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8", "text/plain", ""),
        async (form, type) => {
          const res = await server.fetch("/api/account/set-password", {
            method: "POST",
            headers: type ? { "content-type": type } : {},
            body: new URLSearchParams(form as Record<string, string>).toString(),
          });
          expect([303, 413, 415]).toContain(res.status);
          if (res.status === 303) expect(res.headers.get("location")).toMatch(/^\/account\/set-password\?token=.*&error=invalid_link$/);
        },
      ),
      { seed: 16, numRuns: 60 },
    );
    const big = await server.fetch("/api/account/set-password", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${"a".repeat(20_000)}`,
    });
    expect(big.status).toBe(413);
    expect(await db().user.findMany({ select: { id: true, passwordHash: true }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("answers 415 to a non-form body", async () => {
    const r = await server.fetch("/api/account/set-password", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(r.status).toBe(415);
  });
});

describe("members, disabling and domains", () => {
  it("add-member accepts built-in and custom roles only, and merges roles", async () => {
    await expect(addMember({ actor: TEST_ACTOR, db: db(), school: "pottery", email: "x@pottery.example", role: "superuser", now: T0 })).rejects.toThrow(
      /unknown role "superuser"; choose from owner, manager/,
    );
    await db().schoolRole.create({ data: { schoolId: created.school.id, name: "mentor" } });
    await addMember({ actor: TEST_ACTOR, db: db(), school: "pottery", email: "ta@pottery.example", role: "mentor", now: T0 });
    const m = await db().schoolMembership.findFirstOrThrow({ where: { schoolId: created.school.id, user: { email: "ta@pottery.example" } } });
    expect(m.roles).toEqual(["teaching_assistant", "mentor"]);
    // The owner has a password now: adding a role issues no new link.
    const owner = await addMember({ actor: TEST_ACTOR, db: db(), school: "pottery", email: "owner@pottery.example", role: "teacher", now: T0 });
    expect(owner.passwordSetup).toBeNull();
    await expect(addMember({ actor: TEST_ACTOR, db: db(), school: "nope", email: "x@y.example", role: "student", now: T0 })).rejects.toThrow(SchoolCommandError);
  });

  it("a custom domain serves the school; hosts under the platform domain or malformed are refused", async () => {
    await setCustomDomain({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", host: "Learn.Pottery.Example", platformDomain: "localhost" });
    clearSchoolCache();
    const res = await server.fetch("/api/md/home", { headers: { host: "learn.pottery.example" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Clay & Kiln");
    for (const bad of ["x.localhost", "https://a.example/", "a.example:8443", "nodot", "10.0.0.1"]) {
      await expect(setCustomDomain({ actor: TEST_ACTOR, now: new Date(), db: db(), school: "pottery", host: bad, platformDomain: "localhost" })).rejects.toThrow(SchoolCommandError);
    }
    const other = await createSchool({ actor: TEST_ACTOR, db: db(), subdomain: "other", name: "Other", ownerEmail: "o@other.example", now: T0 });
    await expect(setCustomDomain({ actor: TEST_ACTOR, now: new Date(), db: db(), school: other.school.id, host: "learn.pottery.example", platformDomain: "localhost" })).rejects.toThrow(
      /already the domain of another school/,
    );
  });

  it("disable takes the storefront and the Admin API key offline; enable brings them back", async () => {
    expect((await setSchoolEnabled({ actor: TEST_ACTOR, db: db(), school: "pottery", enabled: false, now: T0 })).changed).toBe(true);
    expect((await setSchoolEnabled({ actor: TEST_ACTOR, db: db(), school: "pottery", enabled: false, now: T0 })).changed).toBe(false);
    clearSchoolCache();
    expect((await server.fetch("/api/md/home")).status).toBe(404);
    expect((await adminQuery(created.apiKey.key)).status).toBe(401);
    expect((await listSchools({ db: db() })).find((s) => s.subdomain === "pottery")?.disabledAt).toEqual(T0);

    await setSchoolEnabled({ actor: TEST_ACTOR, db: db(), school: "pottery", enabled: true, now: T0 });
    clearSchoolCache();
    expect((await server.fetch("/api/md/home")).status).toBe(200);
    expect((await adminQuery(created.apiKey.key)).status).toBe(200);
  });
});
