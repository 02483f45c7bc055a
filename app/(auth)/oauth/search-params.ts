export type Search = Promise<Record<string, string | string[] | undefined>>;

/** Next's searchParams object back to URLSearchParams (repeated keys kept, so duplicates stay detectable). */
export function toSearchParams(raw: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) {
    if (Array.isArray(v)) v.forEach((x) => out.append(k, x));
    else if (v !== undefined) out.append(k, v);
  }
  return out;
}
