// What one ID token's signature costs, jose's SignJWT over WebCrypto (how lib/oidc/keys.ts signed
// before) against node:crypto's `sign` on the threadpool with the header encoded once (how it signs
// now): process CPU and the main thread's alone (Linux), 8 in flight, alternated twice. CPU time
// barely depends on other load, unlike throughput (docs/benchmarks.md, "ID tokens").
//
//   npx tsx bench/id-token-signature.ts [RS256|ES256] [tokens]
import { createHash, createPrivateKey, generateKeyPairSync, sign } from "node:crypto";
import { importJWK, SignJWT } from "jose";
import { statCpuMs } from "./proc-cpu";

const alg = process.argv[2] === "ES256" ? "ES256" : "RS256";
const tokens = Number(process.argv[3] ?? 3000);
const mainThreadMs = () => statCpuMs(`/proc/self/task/${process.pid}/stat`);

const { privateKey } = alg === "RS256" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ec", { namedCurve: "P-256" });
const jwk = privateKey.export({ format: "jwk" });
const kid = "q5ACmq7lVcgj5eK_irgnEMSJIonx9oEp8hdahkqeZ44";
// The old memo looked a key up by kid and its sealed text (about 2.3 kB for RS256) on every token.
const sealed = `v1.${"x".repeat(2300)}`;
const cryptoKeys = new Map([[`private:${kid}:${sealed}`, importJWK(jwk, alg)]]);
const keyObject = createPrivateKey({ key: jwk, format: "jwk" });
const signingKey = alg === "ES256" ? { key: keyObject, dsaEncoding: "ieee-p1363" as const } : keyObject;
const header = Buffer.from(JSON.stringify({ alg, kid })).toString("base64url");

// A refresh's ID token claims (profile, email, roles), a new at_hash each time.
const claims = () => ({
  iss: "http://demo.localhost:3000",
  sub: "8c1c7f8e-7a3f-4b55-9a9e-2d7f0f8b1a11",
  name: "Student Example",
  email: "student@example.test",
  email_verified: true,
  org_id: "5b1f0a5e-1111-4c2b-8a3e-9d1e3f0a2b3c",
  roles: ["student"],
  aud: "demo-public-app",
  azp: "demo-public-app",
  iat: 1764000000,
  exp: 1764003600,
  auth_time: 1764000000,
  at_hash: createHash("sha256").update(String(Math.random())).digest().subarray(0, 16).toString("base64url"),
  sid: "0f9e8d7c-6b5a-4c3d-2e1f-0a9b8c7d6e5f",
  amr: ["pwd"],
});

const viaJose = async () => new SignJWT(claims()).setProtectedHeader({ alg, kid }).sign(await cryptoKeys.get(`private:${kid}:${sealed}`)!);
const viaNode = async () => {
  const input = `${header}.${Buffer.from(JSON.stringify(claims())).toString("base64url")}`;
  const signature = await new Promise<Buffer>((resolve, reject) => sign("sha256", Buffer.from(input, "ascii"), signingKey, (e, s) => (e ? reject(e) : resolve(s))));
  return `${input}.${signature.toString("base64url")}`;
};

async function run(make: () => Promise<string>, count: number): Promise<void> {
  let left = count;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (left-- > 0) await make();
  }));
}

for (const [name, make] of [["jose SignJWT (before)", viaJose], ["node:crypto sign (now)", viaNode], ["jose SignJWT (before)", viaJose], ["node:crypto sign (now)", viaNode]] as const) {
  await run(make, 300); // warm-up
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadMs();
  const t0 = performance.now();
  await run(make, tokens);
  const cpu = process.cpuUsage(cpu0);
  const main = mainThreadMs() - main0;
  console.log(
    `${alg} ${name}: ${((cpu.user + cpu.system) / 1000 / tokens).toFixed(3)} ms CPU per token, ` +
      `${(main / tokens).toFixed(3)} ms on the main thread (${((performance.now() - t0) / tokens).toFixed(3)} ms wall)`,
  );
}
