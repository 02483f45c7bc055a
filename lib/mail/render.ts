import type { MailContent } from "./template";

/** Control characters (CR and LF among them) never reach a header: a value is one line of text. */
export const oneLine = (value: string, max = 200): string =>
  value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim().slice(0, max);

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Links in mails are absolute http(s) URLs we built; anything else is refused rather than sent. */
function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`mail link with scheme ${parsed.protocol} refused`);
  return parsed.toString();
}

const FALLBACK_COLOR = "#1f4e79";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  links: string[];
}

/** The text and HTML parts of a mail, in the school's name and colour. */
export function renderMail(content: MailContent, school: { name: string; brandColor: string | null }): RenderedMail {
  const color = school.brandColor && /^#[0-9a-f]{6}$/i.test(school.brandColor) ? school.brandColor : FALLBACK_COLOR;
  const action = content.action ? { label: content.action.label, url: safeUrl(content.action.url) } : null;
  const text = [
    content.heading,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.rows ?? []).map(([k, v]) => `${k}: ${v}`),
    ...(content.rows?.length ? [""] : []),
    ...(action ? [`${action.label}:`, action.url, ""] : []),
    ...(content.note ? [content.note, ""] : []),
    `— ${school.name}`,
    "",
  ].join("\n");
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(content.subject)}</title></head>
<body style="margin:0;padding:24px;font-family:system-ui,sans-serif;color:#1a1a1a;background:#f6f6f6">
<div style="max-width:560px;margin:0 auto;background:#fff;border-top:4px solid ${color};padding:24px">
<p style="margin:0 0 16px;font-weight:600;color:${color}">${e(school.name)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${e(content.heading)}</h1>
${content.paragraphs.map((p) => `<p>${e(p)}</p>`).join("\n")}
${content.rows?.length ? `<table>${content.rows.map(([k, v]) => `<tr><th style="text-align:left;padding-right:16px">${e(k)}</th><td>${e(v)}</td></tr>`).join("")}</table>` : ""}
${action ? `<p><a href="${e(action.url)}" style="display:inline-block;background:${color};color:#fff;padding:10px 16px;text-decoration:none;border-radius:4px">${e(action.label)}</a></p>\n<p style="font-size:13px;word-break:break-all">${e(action.url)}</p>` : ""}
${content.note ? `<p style="font-size:13px;color:#555">${e(content.note)}</p>` : ""}
</div></body></html>
`;
  return { subject: oneLine(content.subject), text, html, links: action ? [action.url] : [] };
}
