// Issue 12, attack 4: login timing told which emails have accounts, and five wrong passwords locked
// anyone (the owner included) out for 15 minutes. Now unknown and known emails do the same work and
// failures slow further attempts progressively, per account and per client address, never locking.
import { afterEach, describe, expect, it, vi } from "vitest";
import { THROTTLE_RULES, waitSeconds } from "@/lib/auth/login-throttle";
import { advance, setNow } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { appForSuite } from "../../helpers/app-for-suite";
import { postLogin } from "../oauth/helpers";

const app = appForSuite({ host: "demo.localhost" });
afterEach(async () => {
  setNow(null);
  vi.restoreAllMocks();
  await db().loginThrottle.deleteMany();
});

/** What the login form answers: signed in, a plain failure, or throttled. */
async function attempt(email: string, password: string): Promise<"signed_in" | "invalid" | "throttled"> {
  const { response, cookie } = await postLogin(app, { email, password }, "");
  if (/authjs\.session-token=/.test(cookie)) return "signed_in";
  const location = response.headers.get("location") ?? "";
  return /code=throttled/.test(location) ? "throttled" : "invalid";
}

async function attemptFrom(address: string, email: string, password: string) {
  // The helper's requests carry no X-Forwarded-For; add one the way `next start` does.
  const c = await app.fetch("/api/auth/csrf", { headers: { "x-forwarded-for": address } });
  const { csrfToken } = (await c.json()) as { csrfToken: string };
  const cookie = c.headers.getSetCookie().map((x) => x.split(";")[0]).join("; ");
  const res = await app.fetch("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": address },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/", email, password }),
  });
  if (res.headers.getSetCookie().some((x) => x.startsWith("authjs.session-token="))) return "signed_in";
  return /code=throttled/.test(res.headers.get("location") ?? "") ? "throttled" : "invalid";
}

// Every test runs many sign-ins, each a deliberately slow password hash: generous on a busy machine.
describe("login throttling", { timeout: 120_000 }, () => {
  it("locks no one out: after the free failures the owner waits seconds, then the right password works", async () => {
    setNow(new Date("2026-04-01T09:00:00Z"));
    const email = "owner@schoolhouse.test";
    for (let i = 0; i < THROTTLE_RULES.account.free; i++) expect(await attempt(email, "guess-" + i)).toBe("invalid");
    // Throttled: not even the right password is checked until the wait is over.
    expect(await attempt(email, "schoolhouse-demo")).toBe("throttled");
    advance(waitSeconds("account", THROTTLE_RULES.account.free) * 1000);
    expect(await attempt(email, "schoolhouse-demo")).toBe("signed_in");
  });

  it("the wait doubles per failure and is capped (no lockout however many guesses)", async () => {
    setNow(new Date("2026-04-01T10:00:00Z"));
    const email = "manager@schoolhouse.test";
    const waits: number[] = [];
    for (let i = 0; i < THROTTLE_RULES.account.free + 8; i++) {
      expect(await attempt(email, "guess-" + i)).toBe("invalid");
      const row = await db().loginThrottle.findUniqueOrThrow({ where: { key: `account:${email}` } });
      const wait = row.blockedUntil ? Math.max(0, (row.blockedUntil.getTime() - Date.parse(row.lastFailureAt.toISOString())) / 1000) : 0;
      waits.push(wait);
      advance(wait * 1000);
    }
    expect(waits).toEqual([0, 0, 0, 0, 1, 2, 4, 8, 16, 30, 30, 30, 30]);
    expect(await attempt(email, "schoolhouse-demo")).toBe("signed_in");
  });

  it("unknown emails are answered and throttled exactly like real ones", async () => {
    setNow(new Date("2026-04-01T11:00:00Z"));
    const answers = async (email: string) => {
      const out: string[] = [];
      for (let i = 0; i <= THROTTLE_RULES.account.free; i++) out.push(await attempt(email, "wrong-" + i));
      return out;
    };
    const real = await answers("teacher@schoolhouse.test");
    const ghost = await answers("nobody-here@schoolhouse.test");
    expect(ghost).toEqual(real);
    expect(real.at(-1)).toBe("throttled");
  });

  it("an unknown email costs as much as a real one (the password hash runs for both)", async () => {
    // Ratio of medians, interleaved, with wide bounds: before the fix an unknown email answered in
    // about a third of the time of a real account.
    const time = async (email: string) => {
      const start = performance.now();
      await attempt(email, "wrong-password");
      return performance.now() - start;
    };
    const real: number[] = [];
    const unknown: number[] = [];
    const accounts = ["ta@schoolhouse.test", "student@schoolhouse.test", "reviewer@schoolhouse.test", "employee@schoolhouse.test"];
    for (let i = 0; i < 8; i++) {
      real.push(await time(accounts[i % accounts.length]!));
      unknown.push(await time(`ghost-${i}@schoolhouse.test`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(unknown) / median(real);
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.7);
  });

  it("throttles a client address guessing across many accounts, not other addresses", async () => {
    setNow(new Date("2026-04-01T12:00:00Z"));
    const guesser = "203.0.113.9";
    for (let i = 0; i < THROTTLE_RULES.address.free; i++) {
      expect(await attemptFrom(guesser, `victim-${i % 7}@schoolhouse.test`, "wrong")).toBe("invalid");
    }
    expect(await attemptFrom(guesser, "student@schoolhouse.test", "schoolhouse-demo")).toBe("throttled");
    expect(await attemptFrom("198.51.100.4", "student@schoolhouse.test", "schoolhouse-demo")).toBe("signed_in");
  });

  it("logs throttling as a structured security event", async () => {
    setNow(new Date("2026-04-01T13:00:00Z"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i <= THROTTLE_RULES.account.free; i++) await attempt("admin@schoolhouse.test", "nope-" + i);
    const events = warn.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
    expect(events).toContainEqual(expect.objectContaining({ type: "security", event: "login.throttled", throttle: "account" }));
    // No password or email in the log line.
    expect(JSON.stringify(events)).not.toMatch(/nope-|admin@/);
  });
});
