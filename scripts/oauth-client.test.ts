// `npm run oauth-client` end to end, as an operator runs it, against its own embedded database
// directory; the printed secret is then used at the token endpoint of the app on that database.
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "@/tests/helpers/run-script";
import { closeDbHandle, createDbHandle, setDbHandle } from "@/lib/db/client";
import { createPgliteDriver } from "@/lib/db/driver";
import { clearSchoolCache } from "@/lib/tenancy/resolve-school";
import { startAppServer } from "@/tests/helpers/app-server";
import { VERIFIER, form, getCode, signIn } from "@/tests/integration/oauth/helpers";

const CB = "https://reports.example/callback";
let dir: string;

const cli = (script: string, args: string[] = []) => runScript(script, args, { PGLITE_DATA_DIR: dir });

/** Opens the CLI's database in this process (the CLI has exited and released it), serves the app, and exchanges codes with each secret. */
async function tokenStatuses(clientId: string, secrets: string[]): Promise<number[]> {
  const handle = createDbHandle(createPgliteDriver(dir));
  setDbHandle(handle);
  clearSchoolCache();
  const app = await startAppServer({ host: "demo.localhost" });
  try {
    const cookie = await signIn(app, "student@schoolhouse.test");
    const statuses: number[] = [];
    for (const secret of secrets) {
      const { code } = await getCode(app, cookie, { client_id: clientId, redirect_uri: CB, scope: "openid courses:read" });
      const init = form({ grant_type: "authorization_code", code, redirect_uri: CB, code_verifier: VERIFIER });
      const authorization = `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;
      const res = await app.fetch("/api/oauth/token", { ...init, headers: { ...(init.headers as Record<string, string>), authorization } });
      statuses.push(res.status);
    }
    return statuses;
  } finally {
    await app.close();
    setDbHandle(undefined);
    await closeDbHandle(handle);
    // The data directory's lock names this process until it exits; the next CLI run needs it free.
    rmSync(`${dir}.lock`, { force: true });
  }
}

const secretIn = (stdout: string) => /^\s+(ocs_[A-Za-z0-9_-]{43})$/m.exec(stdout)?.[1];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oauth-client-cli-"));
  expect((await cli("scripts/db-seed.ts")).code).toBe(0);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("npm run oauth-client", () => {
  it("create prints the secret once and it works at the token endpoint; rotate keeps the old one for the overlap; revoke ends both", async () => {
    const created = await cli("scripts/oauth-client.ts", [
      "create", "--school", "demo", "--name", "Reporting", "--redirect-uri", CB, "--redirect-uri", "http://127.0.0.1/cb", "--scope", "openid,profile courses:read",
    ]);
    expect(created.code).toBe(0);
    const clientId = /client_id: (oc_[0-9a-f]{24})/.exec(created.stdout)?.[1];
    const secret = secretIn(created.stdout);
    expect(clientId).toBeTruthy();
    expect(secret).toBeTruthy();
    expect(created.stdout).toContain("scopes: courses:read openid profile");
    expect(created.stdout).toMatch(/only time the secret is shown/);

    const listed = await cli("scripts/oauth-client.ts", ["list", "--school", "demo"]);
    expect(listed.stdout).toMatch(new RegExp(`${clientId}\\s+demo\\s+"Reporting"\\s+confidential\\s+active`));
    expect(listed.stdout).not.toContain(secret!);

    const rotated = await cli("scripts/oauth-client.ts", ["rotate", clientId!]);
    expect(rotated.code).toBe(0);
    const newSecret = secretIn(rotated.stdout);
    expect(newSecret).toBeTruthy();
    expect(newSecret).not.toBe(secret);
    expect(rotated.stdout).toMatch(/previous secret keeps working until \d{4}-\d\d-\d\dT/);
    expect((await cli("scripts/oauth-client.ts", ["list"])).stdout).toMatch(new RegExp(`${clientId}.*previous secret until`));

    // Old (in its overlap), new, and a guess.
    expect(await tokenStatuses(clientId!, [secret!, newSecret!, "ocs_guess"])).toEqual([200, 200, 401]);

    // Three authorizations (the guess's code was never redeemed), two token pairs.
    const revoked = await cli("scripts/oauth-client.ts", ["revoke", clientId!]);
    expect(revoked.stdout).toMatch(new RegExp(`revoked OAuth client ${clientId}: 3 grants, 2 access tokens and 2 refresh tokens revoked`));
    expect((await cli("scripts/oauth-client.ts", ["list"])).stdout).toMatch(new RegExp(`${clientId}.*revoked \\d{4}-`));
    await expect(tokenStatuses(clientId!, [newSecret!])).rejects.toThrow(/authorize answered 400/);
  }, 300_000);

  it("--id-token-alg ES256 registers id_token_signed_response_alg; none and HS256 are refused", async () => {
    const created = await cli("scripts/oauth-client.ts", ["create", "--school", "demo", "--name", "ES app", "--redirect-uri", CB, "--scope", "openid", "--public", "--id-token-alg", "ES256"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("ID tokens signed with: ES256");
    const plain = await cli("scripts/oauth-client.ts", ["create", "--school", "demo", "--name", "RS app", "--redirect-uri", CB, "--scope", "openid", "--public"]);
    expect(plain.stdout).toContain("ID tokens signed with: RS256");
    for (const alg of ["none", "HS256"]) {
      const refused = await cli("scripts/oauth-client.ts", ["create", "--school", "demo", "--name", "x", "--redirect-uri", CB, "--scope", "openid", "--id-token-alg", alg]);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe("oauth-client: --id-token-alg must be one of RS256, ES256");
    }
  }, 180_000);

  it("bad input is one line on stderr and exit code 1", async () => {
    const bad = await cli("scripts/oauth-client.ts", ["create", "--school", "demo", "--name", "x", "--redirect-uri", "http://evil.example/cb", "--scope", "openid"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^oauth-client: redirect URI "http:\/\/evil\.example\/cb" must be an https URL/);
    const school = await cli("scripts/oauth-client.ts", ["create", "--school", "nowhere", "--name", "x", "--redirect-uri", CB, "--scope", "openid"]);
    expect(school.stderr.trim()).toBe('oauth-client: no school with id or subdomain "nowhere"');
    const publicRotate = await cli("scripts/oauth-client.ts", ["rotate", "demo-public-app"]);
    expect(publicRotate.stderr.trim()).toMatch(/^oauth-client: OAuth client demo-public-app is public/);
    const usage = await cli("scripts/oauth-client.ts", []);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/usage:/);
  }, 120_000);
});
