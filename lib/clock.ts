// The service's notion of "now". Tests (including HTTP tests that run the app in-process)
// move it with setNow(); production code calls now() instead of new Date().

let fixed: Date | null = null;

export function now(): Date {
  return fixed ? new Date(fixed) : new Date();
}

/** Test hook: freeze the clock at a time, or pass null to follow the real clock again. */
export function setNow(at: Date | number | null): void {
  fixed = at === null ? null : new Date(at);
}

/** Test hook: move a frozen clock forward. */
export function advance(ms: number): void {
  fixed = new Date((fixed ?? new Date()).getTime() + ms);
}

export const toUnixSeconds = (d: Date | null | undefined): number | null =>
  d ? Math.floor(d.getTime() / 1000) : null;

export const fromUnixSeconds = (s: number): Date => new Date(s * 1000);
