import { retryAfterHeaders } from "../db/unavailable";

// Minimal HTML for answers the authorize route handler renders itself (errors that must not redirect).
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function htmlErrorPage(status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)} · Schoolhouse</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1.25rem;line-height:1.55}
.error{color:#b42318;background:#fef3f2;border:1px solid #fecdca;border-radius:8px;padding:.6rem .8rem}</style></head>
<body><main><h1>${escape(title)}</h1><p class="error" role="alert">${escape(message)}</p>
<p>You can close this window and return to the application.</p></main></body></html>`;
  return new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      ...headers,
    },
  });
}

/** The authorize, login and consent answer while the database is unavailable: 503, Retry-After. */
export function unavailablePage(): Response {
  const seconds = retryAfterHeaders()["retry-after"];
  return htmlErrorPage(
    503,
    "Temporarily unavailable",
    `Signing in is briefly unavailable because our database cannot be reached. Nothing was changed. Go back and try again in ${seconds} seconds.`,
    retryAfterHeaders(),
  );
}
