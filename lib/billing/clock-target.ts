import { SchoolCommandError } from "../schools/errors";

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A test clock's target: an ISO time, or +<n>d / +<n>h / +<n>m after the clock's current time. */
export function parseClockTarget(value: string, current: Date): Date {
  const rel = /^\+(\d{1,6})([mhd])$/.exec(value.trim());
  if (rel) return new Date(current.getTime() + Number(rel[1]) * UNIT_MS[rel[2]!]!);
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    throw new SchoolCommandError(`--to must be an ISO time (2027-01-31T00:00:00Z) or +<n>d, +<n>h, +<n>m; got "${value}"`);
  }
  return at;
}
