// Display and wire formats shared by the HTML pages and the markdown, so both show the same text.

type Decimalish = { toFixed(digits: number): string } | string | number;

/** Decimal money amount as a string with two decimals ("49.00"); never a float. */
export function moneyString(amount: Decimalish): string {
  if (typeof amount === "string") return Number.isFinite(Number(amount)) ? Number(amount).toFixed(2) : amount;
  return amount.toFixed(2);
}

/** Price as shown to people: "49.00 USD", or "Free" for zero. */
export function displayPrice(price: string, currency: string): string {
  return Number(price) === 0 ? `Free (0.00 ${currency})` : `${price} ${currency}`;
}

/** Validates an IANA zone name; unknown names fall back to UTC instead of throwing at render time. */
export function safeTimeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

/** ISO-8601 local time with the zone's UTC offset at that instant, e.g. 2026-12-10T12:00:00-05:00. */
export function isoInZone(date: Date, zone: string): string {
  const tz = safeTimeZone(zone);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "longOffset",
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const name = get("timeZoneName"); // "GMT-05:00", or "GMT" for a zero offset
  const offset = name === "GMT" ? "+00:00" : name.replace("GMT", "");
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}${offset}`;
}

/** Human date-time in the event's zone, e.g. "Thu, 10 Dec 2026, 12:00 (GMT-05:00)". */
export function displayDateTime(date: Date, zone: string): string {
  const tz = safeTimeZone(zone);
  return new Intl.DateTimeFormat("en-GB", {
    timeZone: tz,
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZoneName: "longOffset",
  }).format(date);
}

/** Calendar date in UTC, e.g. "15 Jan 2026". */
export function displayDate(date: Date): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" }).format(date);
}

export function displayDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (!h) return `${m} min`;
  return m ? `${h} h ${m} min` : `${h} h`;
}

export function displayBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** One line of plain text: collapses whitespace so it fits a list item or a YAML scalar. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

export function everyInterval(count: number, unit: string): string {
  return count === 1 ? `every ${unit}` : `every ${plural(count, unit)}`;
}

export function lengthOf(count: number, unit: string): string {
  return plural(count, unit);
}
