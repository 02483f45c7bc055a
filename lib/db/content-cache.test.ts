import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The content version comes from the database; here each read is a promise the test settles.
const reads: Array<{ resolve: (v: { version: bigint } | null) => void }> = [];
vi.mock("./client", () => ({
  db: () => ({
    contentVersion: {
      findUnique: () =>
        new Promise<{ version: bigint } | null>((resolve) => {
          reads.push({ resolve });
        }),
    },
  }),
}));

const { cachedContent, cachedContentState, clearContentCache, contentSlot, readContentVersion, contentCacheStats, CONTENT_CACHE_MAX_BYTES } = await import(
  "./content-cache"
);
const { DatabaseUnavailableError } = await import("./unavailable");
const { setNow } = await import("../clock");
const { resetEnvCache } = await import("../env");

/** Monotonic time as the cache sees it (performance.now), moved by the tests. */
let monotonic = 1_000;
vi.spyOn(performance, "now").mockImplementation(() => monotonic);

function revalidateEvery(ms: number): void {
  process.env.STOREFRONT_REVALIDATE_MS = String(ms);
  resetEnvCache();
}

/** Settles the oldest pending version read. */
async function answer(version: number | null): Promise<void> {
  await vi.waitFor(() => expect(reads.length).toBeGreaterThan(0));
  reads.shift()!.resolve(version === null ? null : { version: BigInt(version) });
}

/** cachedContent with the version read answered. */
async function page<T>(key: string, version: number | null, build: () => Promise<{ value: T; bytes: number; changesAt?: Date | null }>) {
  const p = cachedContent(key, build);
  await answer(version);
  return p;
}

beforeEach(() => {
  // Most tests check what every request sees with a read per request; see "revalidation interval".
  revalidateEvery(0);
  clearContentCache();
  reads.length = 0;
});
afterEach(() => {
  setNow(null);
  delete process.env.STOREFRONT_REVALIDATE_MS;
  resetEnvCache();
});

describe("content version reads", () => {
  it("callers arriving during a read wait for the next one, and share it", async () => {
    const first = readContentVersion();
    const second = readContentVersion();
    const third = readContentVersion();
    expect(reads.length).toBe(1);
    // A write may have committed after the first read started: the later callers must not use it.
    reads.shift()!.resolve({ version: 1n });
    expect(await first).toBe(1n);
    await vi.waitFor(() => expect(reads.length).toBe(1));
    reads.shift()!.resolve({ version: 2n });
    expect(await second).toBe(2n);
    expect(await third).toBe(2n);
    expect(reads.length).toBe(0);
  });

  it("a failed read fails its callers, and the next caller reads again", async () => {
    const failing = readContentVersion();
    const waiting = readContentVersion();
    reads.shift()!.resolve(Promise.reject(new Error("connection lost")) as never);
    await expect(failing).rejects.toThrow("connection lost");
    await answer(3);
    expect(await waiting).toBe(3n);
  });
});

describe("cachedContent", () => {
  it("builds once while the version is unchanged, and again once it grows", async () => {
    let builds = 0;
    const build = async () => ({ value: `body ${++builds}`, bytes: 10 });
    expect(await page("k", 5, build)).toBe("body 1");
    expect(await page("k", 5, build)).toBe("body 1");
    expect(await page("k", 6, build)).toBe("body 2");
    expect(await page("k", 6, build)).toBe("body 2");
    expect(builds).toBe(2);
  });

  it("concurrent misses of one key share one build", async () => {
    let builds = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const build = async () => {
      builds++;
      await gate;
      return { value: "shared", bytes: 10 };
    };
    const a = cachedContent("k", build);
    await answer(1);
    const b = cachedContent("k", build);
    await answer(1);
    await vi.waitFor(() => expect(builds).toBe(1));
    release();
    expect(await Promise.all([a, b])).toEqual(["shared", "shared"]);
    expect(builds).toBe(1);
  });

  it("caches nothing for a version older than one already seen, or without the version row", async () => {
    let builds = 0;
    const build = async () => ({ value: ++builds, bytes: 10 });
    await page("k", 9, build);
    expect(await page("k", 8, build)).toBe(2);
    expect(await page("k", 9, build)).toBe(1);
    expect(await page("other", null, build)).toBe(3);
    expect(await page("other", null, build)).toBe(4);
  });

  it("a failed build is not cached", async () => {
    let calls = 0;
    const build = async () => {
      if (++calls === 1) throw new Error("database down");
      return { value: "ok", bytes: 10 };
    };
    await expect(page("k", 1, build)).rejects.toThrow("database down");
    expect(await page("k", 1, build)).toBe("ok");
  });

  it("a value expires at its changesAt on the service clock, without a write", async () => {
    setNow(new Date("2026-12-10T18:00:00Z"));
    let builds = 0;
    const build = async () => ({ value: ++builds, bytes: 10, changesAt: new Date("2026-12-10T18:30:00.001Z") });
    expect(await page("home", 1, build)).toBe(1);
    setNow(new Date("2026-12-10T18:30:00Z"));
    expect(await page("home", 1, build)).toBe(1);
    setNow(new Date("2026-12-10T18:30:00.001Z"));
    expect(await page("home", 1, build)).toBe(2);
  });

  it("holds at most CONTENT_CACHE_MAX_BYTES, dropping the least recently used page first", async () => {
    const quarter = Math.floor(CONTENT_CACHE_MAX_BYTES / 4);
    const builds: string[] = [];
    const build = (key: string) => async () => {
      builds.push(key);
      return { value: key, bytes: quarter };
    };
    for (const key of ["a", "b", "c", "d"]) await page(key, 1, build(key));
    expect(contentCacheStats()).toEqual({ entries: 4, bytes: 4 * quarter });
    await page("a", 1, build("a")); // a is now the most recently used
    await page("e", 1, build("e")); // evicts b
    expect(contentCacheStats().entries).toBe(4);
    builds.length = 0;
    await page("a", 1, build("a"));
    await page("b", 1, build("b"));
    expect(builds).toEqual(["b"]);
    // A single value over a quarter of the budget is served but never held.
    await page("huge", 1, async () => ({ value: "huge", bytes: quarter + 1 }));
    expect(contentCacheStats().bytes).toBeLessThanOrEqual(CONTENT_CACHE_MAX_BYTES);
    builds.length = 0;
    await page("huge", 1, build("huge"));
    expect(builds).toEqual(["huge"]);
  });
});

describe("contentSlot (a value made by its caller, not shared)", () => {
  async function slot(key: string, version: number | null) {
    const p = contentSlot<string>(key);
    await answer(version);
    return p;
  }

  it("misses, keeps what is put, and hits at the same version only", async () => {
    const a = await slot("k", 1);
    expect(a.hit).toBeUndefined();
    a.put("made at 1", 10);
    expect((await slot("k", 1)).hit).toBe("made at 1");
    expect((await slot("k", 2)).hit).toBeUndefined();
  });

  it("keeps nothing put under a version older than one seen since the slot was taken", async () => {
    const a = await slot("k", 1);
    // A page read during the making saw a newer version: the value may hold that write.
    await page("page", 2, async () => ({ value: "p", bytes: 1 }));
    a.put("made across a write", 10);
    expect((await slot("k", 2)).hit).toBeUndefined();
    expect(contentCacheStats().entries).toBe(1);
  });

  it("keeps nothing without the version row, or for a version older than one seen", async () => {
    (await slot("k", null)).put("v", 1);
    expect((await slot("k", 3)).hit).toBeUndefined();
    (await slot("k", 2)).put("older", 1);
    expect((await slot("k", 3)).hit).toBeUndefined();
  });
});

describe("revalidation interval (STOREFRONT_REVALIDATE_MS)", () => {
  it("trusts a version read for the interval, counted from when the read started", async () => {
    revalidateEvery(1000);
    let builds = 0;
    const build = async () => ({ value: ++builds, bytes: 10 });
    const first = cachedContent("k", build);
    monotonic += 400; // the read takes 400 ms
    await answer(1);
    expect(await first).toBe(1);
    // No read at all while the last one is recent.
    monotonic += 599;
    expect(await cachedContent("k", build)).toBe(1);
    expect(reads.length).toBe(0);
    // 1000 ms after the read started, the next request reads again and sees the write.
    monotonic += 1;
    const after = cachedContent("k", build);
    await answer(2);
    expect(await after).toBe(2);
  });

  it("defaults to one second", async () => {
    delete process.env.STOREFRONT_REVALIDATE_MS;
    resetEnvCache();
    const build = async () => ({ value: "v", bytes: 10 });
    const first = cachedContent("k", build);
    await answer(1);
    await first;
    monotonic += 999;
    await cachedContent("k", build);
    expect(reads.length).toBe(0);
    monotonic += 1;
    const next = cachedContent("k", build);
    expect(reads.length).toBe(1);
    await answer(1);
    await next;
  });
});

describe("stale-if-error (the database is unavailable)", () => {
  const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  /** Fails the oldest pending version read the way an outage does. */
  async function fail(): Promise<void> {
    await vi.waitFor(() => expect(reads.length).toBeGreaterThan(0));
    reads.shift()!.resolve(Promise.reject(refused()) as never);
  }

  it("serves the last built copy, marked stale, when the version cannot be read", async () => {
    const build = async () => ({ value: "built at v1", bytes: 10 });
    await page("k", 1, build);
    const during = cachedContentState("k", build);
    await fail();
    expect(await during).toEqual({ value: "built at v1", stale: true });
  });

  it("serves the copy of an older version when the rebuild fails (a write, then the outage)", async () => {
    await page("k", 1, async () => ({ value: "v1", bytes: 10 }));
    const during = cachedContentState("k", async () => Promise.reject(refused()));
    await answer(2);
    expect(await during).toEqual({ value: "v1", stale: true });
    // Back: the new version is built and served fresh.
    const after = cachedContentState("k", async () => ({ value: "v2", bytes: 10 }));
    await answer(2);
    expect(await after).toEqual({ value: "v2", stale: false });
  });

  it("serves a copy past its changesAt rather than nothing", async () => {
    setNow(new Date("2026-12-10T18:00:00Z"));
    await page("k", 1, async () => ({ value: "old", bytes: 10, changesAt: new Date("2026-12-10T18:30:00Z") }));
    setNow(new Date("2026-12-10T19:00:00Z"));
    const during = cachedContentState("k", async () => Promise.reject(refused()));
    await answer(1);
    expect(await during).toEqual({ value: "old", stale: true });
  });

  it("a page never built answers DatabaseUnavailableError", async () => {
    const during = cachedContentState("never", async () => ({ value: "x", bytes: 10 }));
    await fail();
    await expect(during).rejects.toBeInstanceOf(DatabaseUnavailableError);
  });

  it("other errors are not hidden behind a stale copy", async () => {
    await page("k", 1, async () => ({ value: "v1", bytes: 10 }));
    const bug = cachedContentState("k", async () => {
      throw new TypeError("a bug");
    });
    await answer(2);
    await expect(bug).rejects.toThrow("a bug");
  });

  it("cachedContent (the Admin API's) never serves a stale copy", async () => {
    const build = async () => ({ value: "v1", bytes: 10 });
    await page("k", 1, build);
    const during = cachedContent("k", build);
    await fail();
    await expect(during).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
