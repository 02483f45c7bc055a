// What the billing mails share: how money, dates and periods read, and where the member's account is.

/** The account pages a billing mail links to (lib/account/forms.ts, ACCOUNT_PAGES; mail sits below it). */
export const membershipsUrl = (origin: string) => `${origin}/account/memberships`;
/** The id of a membership's payment method form on the memberships page (its "Update payment method"). */
export const paymentMethodAnchor = (subscriptionId: string) => `payment-method-${subscriptionId}`;
export const paymentMethodUrl = (origin: string, subscriptionId: string) => `${membershipsUrl(origin)}#${encodeURIComponent(paymentMethodAnchor(subscriptionId))}`;
export const receiptUrl = (origin: string, paymentId: string) => `${origin}/account/payments/${encodeURIComponent(paymentId)}`;

/** "$29.00", "€29.00": the amount in its currency; a code Intl does not know reads "29.00 XYZ". */
export function formatMoney(amount: unknown, currency: unknown): string {
  const value = String(amount ?? "");
  const code = String(currency ?? "");
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).format(Number(value));
  } catch {
    return `${value} ${code}`.trim();
  }
}

/** "December 21, 2026" (UTC, the day the periods are counted in). */
export function formatDay(iso: unknown): string | null {
  if (typeof iso !== "string") return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(d);
}

/** The period a payment paid for, or "No end (lifetime)". */
export function formatPeriod(start: unknown, end: unknown): string {
  const from = formatDay(start);
  const to = formatDay(end);
  if (from && to) return `${from} to ${to}`;
  if (from) return `From ${from}, no end`;
  return "—";
}

export const text = (value: unknown): string => (typeof value === "string" ? value : "");
