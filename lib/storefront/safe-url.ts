/**
 * A link target from stored content that is safe to render: http(s), mailto, or a relative
 * reference (path, query, fragment). Anything else (javascript:, data:, vbscript:, …) is null.
 */
export function safeHref(href: string | undefined | null): string | null {
  if (!href) return null;
  const value = href.trim();
  // Browsers ignore tabs/newlines inside schemes ("java\tscript:"); strip before checking.
  const compact = value.replace(/[\u0000-\u0020]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  if (!scheme) return compact.startsWith("//") ? null : value;
  return ["http", "https", "mailto"].includes(scheme[1]!.toLowerCase()) ? value : null;
}
