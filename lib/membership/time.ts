import type { BillingInterval } from "../db/generated/client";

const DAY_MS = 86_400_000;

/** Adds count intervals; months and years are calendar units clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addInterval(from: Date, interval: BillingInterval, count: number): Date {
  switch (interval) {
    case "day":
      return new Date(from.getTime() + count * DAY_MS);
    case "week":
      return new Date(from.getTime() + count * 7 * DAY_MS);
    case "month":
      return addMonths(from, count);
    case "year":
      return addMonths(from, count * 12);
  }
}

function addMonths(from: Date, months: number): Date {
  const d = new Date(from);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
