// The one shape of every markdown error document (/api/md/*, the gate's 403 by negotiation):
// frontmatter `type: "error"`, `status`, `title`, `message`, then the same as prose with absolute
// links an agent can follow from wherever it read the document.
import { toYaml } from "./markdown";
import { inlineText } from "./markdown-text";

export const ERROR_TITLES = {
  400: "Bad request",
  403: "Members only",
  404: "Not found",
  405: "Method not allowed",
  503: "Temporarily unavailable",
} as const;

export type ErrorStatus = keyof typeof ERROR_TITLES;

export interface ErrorDocument {
  /** scheme://host[:port] of the request, for absolute links. */
  origin: string;
  status: ErrorStatus;
  message: string;
  /** A link that helps with this error in particular (e.g. sign in with another account). */
  action?: { label: string; path: string };
  /** Seconds to wait before retrying (503s), also sent as Retry-After. */
  retryAfter?: number;
}

export function errorMarkdown(o: ErrorDocument): string {
  const title = ERROR_TITLES[o.status];
  const action = o.action ? `[${inlineText(o.action.label)}](${o.origin}${o.action.path})\n\n` : "";
  return (
    `---\n${toYaml({ type: "error", status: o.status, title, message: o.message, ...(o.retryAfter === undefined ? {} : { retry_after: o.retryAfter }) })}---\n\n# ${title}\n\n${inlineText(o.message, { lineStart: true })}\n\n${action}` +
    `Start from the [homepage](${o.origin}/api/md/home) or the [index of all content](${o.origin}/llms.txt).\n`
  );
}
