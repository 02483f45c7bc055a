// The checkout's HTML pages (review, the test provider's hosted page, confirmation): one small
// accessible shell in the school's name, readable at 320 px, no script, every value escaped.

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const NO_TAX_NOTE = "Prices include no tax; coupons are not available.";

const STYLE = `*{box-sizing:border-box}body{font-family:ui-sans-serif,system-ui,sans-serif;color:#1c1d21;background:#fbfaf7;margin:0;line-height:1.55}
header,main,footer{max-width:40rem;margin:0 auto;padding:1rem 1.25rem}header a{color:#1c1d21;font-weight:600;text-decoration:none}
a{color:#2445a8}h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}
.test{background:#fff4d6;border:2px dashed #8a5a00;color:#5c3b00;padding:.5rem .75rem;border-radius:6px;font-weight:600;margin:0 0 1rem}
.summary{background:#fff;border:1px solid #d8d6cf;border-radius:8px;padding:1rem;margin:0 0 1rem}.summary dl{margin:0;display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem}
.summary dt{font-weight:600}.summary dd{margin:0;overflow-wrap:anywhere}.note{color:#4a4b50;font-size:.95rem}
.error{color:#8f1d12;background:#fef3f2;border:1px solid #f3b4ae;border-radius:8px;padding:.6rem .8rem}
.done{color:#0d5130;background:#ecfbf3;border:1px solid #9ad8b4;border-radius:8px;padding:.6rem .8rem}
form{margin:1rem 0}label{display:block;font-weight:600;margin:.75rem 0 .25rem}input{width:100%;font:inherit;padding:.55rem .6rem;border:1px solid #6b6c72;border-radius:6px;background:#fff;color:#1c1d21}
button{font:inherit;font-weight:600;margin-top:1rem;padding:.65rem 1.1rem;border:0;border-radius:6px;background:#2445a8;color:#fff;cursor:pointer;max-width:100%}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #1c1d21;outline-offset:2px}footer{color:#4a4b50;font-size:.9rem}`;

export interface CheckoutPage {
  status: number;
  schoolName: string;
  title: string;
  /** Already-escaped HTML of the main content (below the h1). */
  body: string;
  /** Every page of the test provider says so. */
  testMode?: boolean;
  headers?: Record<string, string>;
}

export function checkoutPage(page: CheckoutPage): Response {
  const school = escapeHtml(page.schoolName);
  const title = escapeHtml(page.title);
  const test = page.testMode ? `<p class="test">Test mode: no real money moves. Use a test card such as 4242 4242 4242 4242.</p>` : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title} · ${school}</title><style>${STYLE}</style></head>
<body><header><a href="/">${school}</a></header>
<main>${test}<h1>${title}</h1>${page.body}</main>
<footer><p>${escapeHtml(NO_TAX_NOTE)}</p></footer></body></html>`;
  return new Response(html, {
    status: page.status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "private, no-store",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'",
      ...page.headers,
    },
  });
}

/** A definition list of a purchase: what, price, terms. */
export function summaryHtml(rows: [string, string][]): string {
  return `<div class="summary"><dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl></div>`;
}
